#!/usr/bin/env bash
# A cluster of emulated hosts on this machine, made of Linux network namespaces (needs root).
#
#   scripts/cluster.sh up N [--link-rate RATE]   N nodes dash-node0 .. dash-node<N-1>
#   scripts/cluster.sh down                      removes everything `up` made
#   scripts/cluster.sh status                    prints the nodes, or "no cluster", exit 1 then
#   scripts/cluster.sh enter NODE [CMD...]       runs CMD (default: a shell) on node NODE (0..N-1)
#
# Each node is a network namespace with its own loopback, one interface eth0 with address
# 10.213.0.(10+i)/24, its own host name and /etc/hosts (bind-mounted in a private mount namespace
# of each process started there; the machine's files are never changed). A switch namespace
# dash-sw holds a bridge that connects the nodes. --link-rate (a tc rate: 500mbit, 1gbit, 4gbit)
# limits every node's link in both directions with a token bucket. What it emulates: host names,
# one network stack per host, TCP between hosts, scarce links. What it does not: the nodes share
# the machine's CPUs, memory, disks and /tmp; there is no fabric (RDMA), only TCP. Node-local
# storage: every process started on a node sees that node's own directory (mode 1777, on the
# machine's disk under /var/lib/dash-cluster/<node>) at /run/dash-cluster/node-local, one path on
# every node as on a cluster's nodes (e.g. DASH_IO_NODE_DIR=/run/dash-cluster/node-local).
#
# `up` is idempotent (the same N: nothing to do, a new rate is applied); a cluster of another
# size is refused. Every refusal is one line on stderr and exit code 2; a failed `up` removes what
# it made. State lives in /run/dash-cluster (nodes, hosts file, the `enter` helper that the
# launchers use as their remote shell).
set -euo pipefail

readonly state=/run/dash-cluster
readonly local_root=/var/lib/dash-cluster
readonly prefix=dash-node
readonly switch=dash-sw
readonly subnet=10.213.0
readonly max_nodes=64

die() {
  echo "cluster.sh: $*" >&2
  exit 2
}

usage() {
  echo "usage: scripts/cluster.sh up N [--link-rate RATE] | down | status | enter NODE [CMD...]" >&2
  exit 2
}

need_root() {
  [[ $(id -u) -eq 0 ]] || die "needs root (network namespaces); run it as root"
  command -v ip >/dev/null || die "needs iproute2's ip (apt-get install iproute2)"
}

# Number of nodes of the cluster that is up, or nothing.
current_nodes() {
  if [[ -r $state/nodes ]]; then cat "$state/nodes"; fi
}

address() { echo "$subnet.$((10 + $1))"; }

# Removes every namespace, link and file this script makes (also half-made ones).
teardown() {
  local ns
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}'); do
    if [[ $ns == "$prefix"* || $ns == "$switch" ]]; then
      # Processes still inside a node (a killed job's daemons) would keep it alive.
      ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
      ip netns del "$ns" 2>/dev/null || true
    fi
  done
  rm -rf "$state" "$local_root"
}

# Applies (or removes, for an empty rate) the token bucket on both ends of node i's link.
apply_rate() {
  local i=$1 rate=$2
  local ends=("$prefix$i eth0" "$switch p$i")
  local end ns dev
  for end in "${ends[@]}"; do
    read -r ns dev <<<"$end"
    ip -n "$ns" link show "$dev" >/dev/null 2>&1 || return 1
    tc -n "$ns" qdisc del dev "$dev" root 2>/dev/null || true
    if [[ -n $rate ]]; then
      # burst: at least one full-sized frame per timer tick at this rate; latency bounds the queue.
      tc -n "$ns" qdisc add dev "$dev" root tbf rate "$rate" burst 256kb latency 50ms || return 1
    fi
  done
}

# Succeeds when namespace $1 reaches address $2: a TCP connect to a closed port is refused
# (an answer from that host) rather than timing out. No ping is needed.
reaches() {
  local out
  out=$(ip netns exec "$1" timeout 3 bash -c "exec 3<>/dev/tcp/$2/9" 2>&1) && return 0
  [[ $out == *refused* ]]
}

write_enter_helper() {
  # The remote shell of both launchers: OpenMPI's rsh agent calls `enter HOST CMD...`, MPICH's
  # hydra calls `enter -x HOST CMD...` (options before the host are skipped).
  cat >"$state/enter" <<EOF
#!/bin/sh
# Runs a command on an emulated host of scripts/cluster.sh: enter [-opts] HOST [CMD...]
while [ \$# -gt 0 ]; do
  case \$1 in -*) shift ;; *) break ;; esac
done
[ \$# -ge 1 ] || { echo "enter: no host given" >&2; exit 2; }
host=\$1; shift
case \$host in
  ${prefix}[0-9]*) ;;
  *) echo "enter: '\$host' is not a node of the cluster (${prefix}0..)" >&2; exit 2 ;;
esac
[ -e /run/netns/\$host ] || { echo "enter: no node \$host (is the cluster up?)" >&2; exit 2; }
[ \$# -ge 1 ] || set -- "\${SHELL:-/bin/sh}"
exec nsenter --net=/run/netns/\$host unshare -u -m sh -c \\
  'mount --bind $state/hosts /etc/hosts && mount --bind $local_root/"\$0" $state/node-local &&
   hostname "\$0" && exec sh -c "\$*"' "\$host" "\$@"
EOF
  chmod 0755 "$state/enter"
}

cmd_up() {
  local n="" rate=""
  while [[ $# -gt 0 ]]; do
    case $1 in
      --link-rate)
        [[ $# -ge 2 ]] || die "--link-rate needs a rate (e.g. 1gbit, 500mbit)"
        rate=$2
        shift 2
        ;;
      --link-rate=*) rate=${1#--link-rate=}; shift ;;
      *)
        [[ -z $n ]] || usage
        n=$1
        shift
        ;;
    esac
  done
  [[ -n $n ]] || usage
  [[ $n =~ ^[0-9]+$ ]] || die "N='$n' is not a number of nodes (1..$max_nodes)"
  ((10#$n >= 1 && 10#$n <= max_nodes)) || die "N=$n is out of range: 1..$max_nodes nodes"
  n=$((10#$n))
  if [[ -n $rate ]]; then
    [[ ${rate,,} =~ ^[0-9]+(\.[0-9]+)?(bit|kbit|mbit|gbit|tbit|bps|kbps|mbps|gbps|tbps)$ ]] ||
      die "--link-rate '$rate' is not a rate: a number and one of bit kbit mbit gbit tbit bps kbps mbps gbps (e.g. 1gbit)"
    [[ ! ${rate,,} =~ ^0+(\.0+)?[a-z]+$ ]] || die "--link-rate '$rate' must be more than zero"
  fi
  need_root
  if ! command -v nsenter >/dev/null || ! command -v unshare >/dev/null; then
    die "needs nsenter and unshare (util-linux)"
  fi
  [[ -z $rate ]] || command -v tc >/dev/null || die "--link-rate needs tc (iproute2)"

  local up
  up=$(current_nodes)
  if [[ -n $up ]]; then
    [[ $up == "$n" ]] || die "a cluster of $up nodes is up; run 'scripts/cluster.sh down' first"
    local i
    for ((i = 0; i < n; ++i)); do
      apply_rate "$i" "$rate" || die "could not set the link rate '$rate' on $prefix$i"
    done
    echo "$rate" >"$state/rate"
    echo "cluster.sh: $n nodes up${rate:+, links at $rate}"
    return 0
  fi

  teardown  # leftovers of a failed or interrupted run
  trap 'teardown' ERR
  mkdir -p "$state"
  chmod 0755 "$state"
  mkdir -p "$state/node-local" "$local_root"
  chmod 0755 "$state/node-local" "$local_root"
  if ! ip netns add "$switch" 2>"$state/error"; then
    local why
    why=$(head -1 "$state/error")
    teardown
    die "cannot make network namespaces here: $why"
  fi
  ip -n "$switch" link add br0 type bridge
  ip -n "$switch" link set br0 up
  ip -n "$switch" link set lo up
  {
    echo "127.0.0.1 localhost"
    echo "::1 localhost ip6-localhost ip6-loopback"
  } >"$state/hosts"
  local i
  for ((i = 0; i < n; ++i)); do
    local ns=$prefix$i
    ip netns add "$ns"
    ip -n "$ns" link set lo up
    # A peer that stops answering fails a TCP connection after ~13 s of retransmissions instead
    # of Linux's ~15 min (tcp_retries2 15 -> 5), so that a launcher notices a host cut off from
    # the network (a cluster's resource manager would end such a job).
    ip netns exec "$ns" sysctl -qw net.ipv4.tcp_retries2=5
    ip link add "dashc$i" netns "$ns" type veth peer name "p$i" netns "$switch"
    ip -n "$ns" link set "dashc$i" name eth0
    ip -n "$ns" addr add "$(address "$i")/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$switch" link set "p$i" master br0
    ip -n "$switch" link set "p$i" up
    apply_rate "$i" "$rate"
    mkdir -p "$local_root/$ns"
    chmod 1777 "$local_root/$ns"
    echo "$(address "$i") $ns" >>"$state/hosts"
  done
  chmod 0644 "$state/hosts"
  write_enter_helper
  echo "$rate" >"$state/rate"
  echo "$n" >"$state/nodes"
  trap - ERR
  # Every node reaches every other one before we say it is up.
  for ((i = 1; i < n; ++i)); do
    if ! reaches "${prefix}0" "$(address "$i")"; then
      teardown
      die "node $prefix$i does not answer on $(address "$i"); nothing was left behind"
    fi
  done
  echo "cluster.sh: $n nodes up${rate:+, links at $rate}"
}

cmd_status() {
  local n
  n=$(current_nodes)
  if [[ -z $n ]]; then
    echo "cluster.sh: no cluster"
    return 1
  fi
  local rate
  rate=$(cat "$state/rate" 2>/dev/null || true)
  echo "cluster.sh: $n nodes up${rate:+, links at $rate} (subnet $subnet.0/24, hosts $state/hosts)"
  local i
  for ((i = 0; i < n; ++i)); do
    local ns=$prefix$i procs
    procs=$(ip netns pids "$ns" 2>/dev/null | wc -l)
    printf '  %-12s %-14s %s processes\n' "$ns" "$(address "$i")" "$procs"
  done
}

[[ $# -ge 1 ]] || usage
command=$1
shift
case $command in
  up) cmd_up "$@" ;;
  down)
    [[ $# -eq 0 ]] || usage
    need_root
    teardown
    echo "cluster.sh: down"
    ;;
  status)
    [[ $# -eq 0 ]] || usage
    cmd_status
    ;;
  enter)
    [[ $# -ge 1 ]] || usage
    [[ -n $(current_nodes) ]] || die "no cluster is up (scripts/cluster.sh up N)"
    node=$1
    shift
    [[ $node =~ ^[0-9]+$ && $node -lt $(current_nodes) ]] ||
      die "NODE '$node' is not one of 0..$(($(current_nodes) - 1))"
    exec "$state/enter" "$prefix$node" "$@"
    ;;
  -h | --help) usage ;;
  *) usage ;;
esac
