#!/usr/bin/env bash
# Two real hosts on one computer, for runs over Open MPI (root only).
#
# Makes two network namespaces, lockstep-h1-PID and lockstep-h2-PID, joined by a veth pair
# (10.77.0.1 and 10.77.0.2) whose two directions are each shaped to RATE by a token bucket filter.
# The processes started in them also get their own host name (h1, h2), so Open MPI sees two
# computers: mpirun runs in h1, and starts its daemon in h2 through a small launch agent instead
# of ssh. The ranks talk over TCP on the veth only (no shared memory across the hosts, and no
# route out of the namespaces). After the run, the bytes each direction carried are printed; the
# namespaces and every process in them are removed, whatever happened.
#
#   scripts/two-hosts.sh [--rate 100mbit] [--per-host K] [--keep] -- COMMAND [ARGS...]
#   scripts/two-hosts.sh [--rate R] [--per-host K] --self-test
#
# runs `mpirun -np 2K COMMAND ARGS...`, K ranks on each host, and exits with mpirun's exit code.
# --rate takes a number with bit, kbit, mbit or gbit (per second, each direction; default 100mbit).
# --keep leaves the namespaces and the temporary folder for a look (the next run removes them).
# --self-test runs `hostname` on every rank and checks that both host names answer.
# The last line on stderr is `two-hosts: veth tx h1->h2 N bytes, h2->h1 M bytes`.
# Exit code 77 (a skip for ctest) when this computer cannot make the namespaces or lacks a tool.
set -euo pipefail

rate=100mbit per_host=2 keep=0 self_test=0
usage() { sed -n 's|^#   \(scripts/two-hosts.sh\)|usage: \1|p' "$0" >&2; exit 2; }
while (($#)); do
    case $1 in
        --rate) (($# > 1)) || usage; rate=$2; shift 2 ;;
        --per-host) (($# > 1)) || usage; per_host=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        --self-test) self_test=1; shift ;;
        --) shift; break ;;
        *) usage ;;
    esac
done
if ((self_test)); then set -- hostname; fi
(($#)) || usage
[[ $per_host =~ ^[1-9][0-9]*$ ]] || { echo "two-hosts: --per-host wants a whole number" >&2; exit 2; }

# The token bucket may send `burst` bytes at once: 10 ms at the rate, and never less than 16 kB.
# A packet that would wait more than 50 ms in its queue is dropped, as a busy switch would.
rate=${rate,,}
[[ $rate =~ ^([0-9]+)(|k|m|g)bit$ ]] || { echo "two-hosts: --rate like 100mbit, please" >&2; exit 2; }
case ${BASH_REMATCH[2]} in k) scale=1000 ;; m) scale=1000000 ;; g) scale=1000000000 ;; *) scale=1 ;; esac
burst=$((BASH_REMATCH[1] * scale / 800))
((burst >= 16384)) || burst=16384

# Skip (77), with the reason, when this computer cannot do it.
skip() { echo "two-hosts: skipped: $*" >&2; exit 77; }
((EUID == 0)) || skip "must run as root (network namespaces)"
for tool in ip tc mpirun unshare hostname; do
    command -v "$tool" >/dev/null || skip "$tool not found"
done

# Unique names, so that two runs at once do not meet (an interface name has 15 characters at most).
ns1=lockstep-h1-$$ ns2=lockstep-h2-$$
dev1=veth-h1 dev2=veth-h2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/two-hosts.$$.XXXXXX")
mpirun_pid=

# Stop every process in the given namespaces (politely, then not) and delete them.
remove_ns() {
    local pids='' seen='' round
    for round in {1..10}; do
        pids=$(for ns in "$@"; do ip netns pids "$ns" 2>/dev/null || true; done)
        [[ -z $pids ]] && break
        seen+=" $pids"
        # shellcheck disable=SC2086
        if ((round < 10)); then kill -TERM $pids 2>/dev/null; sleep 0.3; else kill -KILL $pids 2>/dev/null; fi
    done
    # They leave the namespace as they die, but stay in the process table until they are reaped.
    # shellcheck disable=SC2086
    for round in {1..30}; do kill -0 $seen 2>/dev/null || break; sleep 0.1; done
    ((keep)) || for ns in "$@"; do ip netns del "$ns" 2>/dev/null; done
}
# shellcheck disable=SC2317  # (run by the trap)
cleanup() {
    local rc=$?
    trap - EXIT INT TERM HUP
    set +e
    [[ -n $mpirun_pid ]] && kill -TERM "$mpirun_pid" 2>/dev/null
    remove_ns "$ns1" "$ns2"
    if ((keep)); then
        echo "two-hosts: kept $ns1, $ns2 and $tmp; remove with:" \
            "ip netns del $ns1; ip netns del $ns2; rm -rf $tmp" >&2
    else
        rm -rf "$tmp"
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# A run that was killed outright (SIGKILL) could not clean up: remove what it left.
for ns in $(ip netns list 2>/dev/null | grep -oE '^lockstep-h[12]-[0-9]+' || true); do
    kill -0 "${ns##*-}" 2>/dev/null || (set +e; keep=0; remove_ns "$ns")
done
for dir in "${TMPDIR:-/tmp}"/two-hosts.*.*; do
    [[ $dir =~ two-hosts\.([0-9]+)\. ]] && ! kill -0 "${BASH_REMATCH[1]}" 2>/dev/null && rm -rf "$dir"
done

# Set up the two hosts; a step that fails means this computer cannot, so it is a skip.
try() { local out; out=$("$@" 2>&1) || skip "'$*' failed: ${out//$'\n'/ }"; }
try ip netns add "$ns1"
try ip netns add "$ns2"
try ip link add "$dev1" netns "$ns1" type veth peer name "$dev2" netns "$ns2"
for i in 1 2; do
    ns=ns$i dev=dev$i
    # No IPv6 on the link, so the byte counters hold only what the run sends.
    try ip netns exec "${!ns}" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
    try ip -n "${!ns}" addr add "10.77.0.$i/24" dev "${!dev}"
    try ip -n "${!ns}" link set lo up
    try ip -n "${!ns}" link set "${!dev}" up
    try tc -n "${!ns}" qdisc add dev "${!dev}" root tbf rate "$rate" burst "$burst" latency 50ms
done
# A link is "up" once the kernel has seen both ends' carrier (up to a second later); wait for it.
for _ in {1..50}; do
    [[ $(ip netns exec "$ns1" cat /sys/class/net/$dev1/operstate) == up &&
       $(ip netns exec "$ns2" cat /sys/class/net/$dev2/operstate) == up ]] && break
    sleep 0.1
done

# The launch agent: Open MPI calls it as `agent HOST COMMAND...` where it would call ssh, and it
# runs the command (a shell line) in that host's namespace under that host's name.
cat >"$tmp/agent" <<EOF
#!/bin/sh
host=\$1; shift
case \$host in h1) ns=$ns1 ;; h2) ns=$ns2 ;; *) echo "agent: unknown host \$host" >&2; exit 1 ;; esac
exec ip netns exec "\$ns" unshare --uts sh -c 'hostname "\$0" && exec sh -c "\$1"' "\$host" "\$*"
EOF
chmod +x "$tmp/agent"
printf 'h1 slots=%s\nh2 slots=%s\n' "$per_host" "$per_host" >"$tmp/hostfile"

tx() { ip netns exec "$1" cat "/sys/class/net/$2/statistics/tx_bytes"; }
before1=$(tx "$ns1" "$dev1") before2=$(tx "$ns2" "$dev2")
echo "two-hosts: $((2 * per_host)) ranks on h1 and h2, link $rate each way;" \
    "veth tx before: h1->h2 $before1 bytes, h2->h1 $before2 bytes" >&2

# mpirun in h1. pml ob1 keeps UCX from choosing its own transports; the BTLs are TCP between
# processes and self within one, on the veth's subnet only, for the data and for Open MPI's own
# messages (oob). The two hosts share the computer's cores, so the ranks are not bound to any.
# The self-test keeps what the ranks print, to check it; otherwise it goes straight to stdout.
# mpirun runs in the background (with no stdin) so that a signal reaches the traps at once.
if ((self_test)); then exec 3>"$tmp/out"; else exec 3>&1; fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1
ip netns exec "$ns1" unshare --uts sh -c 'hostname h1 && exec "$@"' sh \
    mpirun -np $((2 * per_host)) --hostfile "$tmp/hostfile" --bind-to none \
    --mca plm rsh --mca plm_rsh_agent "$tmp/agent" \
    --mca pml ob1 --mca btl tcp,self \
    --mca btl_tcp_if_include 10.77.0.0/24 --mca oob_tcp_if_include 10.77.0.0/24 \
    "$@" >&3 &
mpirun_pid=$!
rc=0
wait "$mpirun_pid" || rc=$?
mpirun_pid=

after1=$(tx "$ns1" "$dev1") after2=$(tx "$ns2" "$dev2")
if ((self_test)); then
    sort "$tmp/out" | uniq -c | sed 's/^/two-hosts: self-test: /' >&2
    for h in h1 h2; do
        n=$(grep -cx "$h" "$tmp/out" || true)
        ((n == per_host)) || { echo "two-hosts: self-test: $n ranks on $h, not $per_host" >&2; rc=1; }
    done
    ((after1 > before1 && after2 > before2)) || { echo "two-hosts: self-test: no traffic on the veth" >&2; rc=1; }
fi
echo "two-hosts: veth tx after: h1->h2 $after1 bytes, h2->h1 $after2 bytes; exit code $rc" >&2
echo "two-hosts: veth tx h1->h2 $((after1 - before1)) bytes, h2->h1 $((after2 - before2)) bytes" >&2
exit "$rc"
