# Shared by the bench scripts (sourced, not run): the onair build, GNU time measurements,
# medians, ratios and the results table, and the camera-like input.

[ -x /usr/bin/time ] || { echo "bench: needs GNU time (apt-get install time)" >&2; exit 1; }
if [ -z "${ONAIR:-}" ]; then
    ONAIR=$(bash scripts/build.sh)
fi
tools="onair ffmpeg"
[ -n "${BEFORE:-}" ] && tools="before onair ffmpeg"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A camera-like clip of $1 seconds at $2: 1280x720 25 fps moving pattern with temporal grain
# (noise), H.264 crf 20, plus 5.1 AAC 384 kb/s.
make_camera_clip() {
    ffmpeg -hide_banner -loglevel error -y \
        -f lavfi -i "testsrc2=size=1280x720:rate=25,noise=alls=14:allf=t+u" \
        -f lavfi -i "aevalsrc=0.2*sin(2*PI*220*t)|0.2*sin(2*PI*330*t)|0.2*sin(2*PI*440*t)|0.1*sin(2*PI*55*t)|0.2*sin(2*PI*550*t)|0.2*sin(2*PI*660*t):channel_layout=5.1:sample_rate=48000" \
        -t "$1" -c:v libx264 -preset veryfast -crf 20 -pix_fmt yuv420p -c:a aac -b:a 384k "$2"
}

# measure NAME COMMAND… → prints "wall cpu peak_kb minor_faults sys"
measure() {
    local name=$1; shift
    /usr/bin/time -f "%e %U %S %M %R" -o "$work/$name.time" "$@" >/dev/null 2>"$work/$name.log" || {
        cat "$work/$name.log" >&2; exit 1; }
    awk '{ printf "%s %.2f %d %d %.2f\n", $1, $2 + $3, $4, $5, $3 }' "$work/$name.time"
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

# run_order N: the tools in the order of run N — reversed on every other run, so that neither
# tool always runs right after the other (the machine's speed drifts by up to 30 % between runs
# of one command here; see the paired ratios below).
run_order() {
    if [ $(($1 % 2)) -eq 1 ]; then echo $tools; else echo $tools | tr ' ' '\n' | tac | tr '\n' ' '; fi
}

# paired_ratio COLUMN TOOL PREFIX: each run's TOOL/ffmpeg ratio (runs made back to back), as
# "median (min–max)" — drift between runs falls on both tools of a pair alike.
paired_ratio() {
    paste -d' ' <(awk -v c="$1" '{print $c}' "$work/$3.$2.runs") <(awk -v c="$1" '{print $c}' "$work/$3.ffmpeg.runs") |
        awk '$2 > 0 { printf "%.3f\n", $1 / $2 }' | sort -n |
        awk '{ a[NR] = $1 } END { printf "%.2f (%.2f-%.2f)", a[int((NR + 1) / 2)], a[1], a[NR] }'
}

# print_table PREFIX: medians of $work/PREFIX.TOOL.runs for every tool, then each tool / ffmpeg
# (ratio of the medians), then the median of the per-run ratios with their range.
print_table() {
    local prefix=$1 tool f
    declare -A wall=() cpu=() mem=() faults=() sys=()
    for tool in $tools; do
        f="$work/$prefix.$tool.runs"
        wall[$tool]=$(awk '{print $1}' "$f" | median)
        cpu[$tool]=$(awk '{print $2}' "$f" | median)
        mem[$tool]=$(awk '{print $3}' "$f" | median)
        faults[$tool]=$(awk '{print $4}' "$f" | median)
        sys[$tool]=$(awk '{print $5}' "$f" | median)
    done
    printf "%-9s %8s %8s %9s %12s %8s\n" "" "CPU s" "wall s" "peak MB" "minor faults" "sys s"
    for tool in $tools; do
        printf "%-9s %8s %8s %9.1f %12s %8s\n" "$tool" "${cpu[$tool]}" "${wall[$tool]}" \
            "$(awk -v k="${mem[$tool]}" 'BEGIN{print k/1024}')" "${faults[$tool]}" "${sys[$tool]}"
    done
    for tool in $tools; do
        [ "$tool" = ffmpeg ] && continue
        printf "%-9s %8s %8s %9s %12s %8s\n" "$tool/ff" "$(ratio "${cpu[$tool]}" "${cpu[ffmpeg]}")" \
            "$(ratio "${wall[$tool]}" "${wall[ffmpeg]}")" "$(ratio "${mem[$tool]}" "${mem[ffmpeg]}")" \
            "$(ratio "${faults[$tool]}" "${faults[ffmpeg]}")" "$(ratio "${sys[$tool]}" "${sys[ffmpeg]}")"
    done
    for tool in $tools; do
        [ "$tool" = ffmpeg ] && continue
        echo "$tool/ff per run: CPU $(paired_ratio 2 "$tool" "$prefix"), wall $(paired_ratio 1 "$tool" "$prefix"), peak memory $(paired_ratio 3 "$tool" "$prefix")"
    done
}
