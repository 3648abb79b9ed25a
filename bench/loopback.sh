# Shared by the network benches (sourced, not run): free loopback ports, waiting for a server to
# listen, and a private nginx with the RTMP module.

# free_port [tcp|udp] → a loopback port nobody is bound to (tcp by default).
free_port() {
    python3 -c "import socket,sys; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM if sys.argv[1]=='udp' else socket.SOCK_STREAM); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])" "${1:-tcp}"
}

# wait_for_port PORT [TRIES]: until something accepts TCP connections on 127.0.0.1:PORT (0.1 s
# apart, 50 tries by default); returns 1 if nothing did.
wait_for_port() {
    local tries=${2:-50}
    for _ in $(seq "$tries"); do
        python3 -c "import socket,sys; socket.create_connection(('127.0.0.1',int(sys.argv[1])),0.2)" "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}

# write_nginx_conf DIR PORT [APPLICATION_LINES]: DIR/nginx.conf for a foreground, single-process
# nginx serving RTMP on 127.0.0.1:PORT with application `live` (live, wait_key, and any extra
# directives given).
write_nginx_conf() {
    mkdir -p "$1"
    cat >"$1/nginx.conf" <<CONF
load_module /usr/lib/nginx/modules/ngx_rtmp_module.so;
daemon off;
master_process off;
pid $1/nginx.pid;
error_log $1/error.log info;
events { worker_connections 64; }
rtmp { server { listen 127.0.0.1:$2; chunk_size 4096;
    application live { live on; wait_key on; ${3:-} } } }
CONF
}

# start_nginx DIR PORT: starts the nginx of DIR/nginx.conf, waits until it listens on PORT and
# sets nginx_pid; exits the bench if it does not start.
start_nginx() {
    nginx -p "$1" -c "$1/nginx.conf" 2>>"$1/stderr.log" &
    nginx_pid=$!
    wait_for_port "$2" || { echo "nginx did not start (see $1/stderr.log)" >&2; exit 1; }
}

# bench_workspace: the release onair in $ONAIR (built unless given), a scratch directory in $work
# and a list $pids of background processes, all killed and removed when the bench exits.
bench_workspace() {
    if [ -z "${ONAIR:-}" ]; then
        ONAIR=$(bash scripts/build.sh)
    fi
    work=$(mktemp -d)
    pids=()
    trap bench_cleanup EXIT
}
bench_cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}

# cpu_ticks PID: the user + system clock ticks of an `onair serve` so far (getconf CLK_TCK a
# second); exits the bench with the server's log when it has ended early.
cpu_ticks() {
    if ! awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null; then
        echo "onair serve ended early:" >&2
        grep -v '^serve ' "$work"/serve-*.log | head -40 >&2
        exit 1
    fi
}
