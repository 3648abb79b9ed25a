import OnAir
print("onair")
