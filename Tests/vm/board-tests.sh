#!/bin/sh
# Guest tests of the aarch64 VM (scripts/kernel-test-arm64), run by Tests/vm/init: the static
# board binary and the kernel interfaces it will drive, on Debian's arm64 kernel. Busybox sh;
# busybox's own i2cdetect/i2cget/i2cset, time and cmp (nothing of the host's is mounted). The
# I/O tests are the x86 VM's board pass itself (Tests/vm/guest-tests.sh: board-io-pass below).
# Writes RESULTS/summary (one PASS/FAIL line per test), RESULTS/NAME.log per test and
# RESULTS/timings (each test's seconds, and when it started after boot). The
# inputs are in RESULTS/../board/ (scripts/kernel-test-arm64 step 2): poise-board,
# poise-litmus, synthetic traces, recordings with their compiled configurations
# (TRACE.pcfg), the host's replay of each (TRACE.expected), and the I/O tests' configurations
# (gpio.yaml, switch.yaml) with their compiled forms.
results=$1
board=${POISE_BOARD_DIR:-${results%/*}/board}
summary=$results/summary
: > "$summary"

# The tests, in order: a name and the function that runs it. Adding a test is one function
# below and one line here. A function writes what it did to standard output (NAME.log),
# returns 0 for a pass, and otherwise sets `why` (one line) and returns non-zero; `detail`
# set on a pass shows in the summary line.
TESTS='
board-replay-identical       test_board_replay
board-peak-rss               test_board_peak_rss
board-io-pass                test_board_io
i2c-stub-interface           test_i2c_stub
gpio-sim-interface           test_gpio_sim
hand-over-litmus             test_litmus
'

# ---- set-up shared by the tests (each idempotent) ----------------------------------------
bus=
setup_i2c_stub() {
  [ -n "$bus" ] && return 0
  modprobe i2c-dev || return 1
  modprobe i2c-stub chip_addr=0x68,0x0c || return 1
  for adapter in /sys/class/i2c-adapter/i2c-*; do
    grep -q "SMBus stub driver" "$adapter/name" 2>/dev/null && bus=${adapter##*/i2c-}
  done
  [ -n "$bus" ]
}
lines=
setup_gpio_sim() {
  [ -n "$lines" ] && return 0
  modprobe configfs
  mount -t configfs none /sys/kernel/config 2>/dev/null
  modprobe gpio-sim || return 1
  sim=/sys/kernel/config/gpio-sim/poise
  mkdir "$sim" "$sim/bank0" || return 1
  echo 8 > "$sim/bank0/num_lines"
  echo poise-sim > "$sim/bank0/label"
  echo 1 > "$sim/live" || return 1
  chip=$(cat "$sim/bank0/chip_name")
  lines=/sys/devices/platform/$(cat "$sim/dev_name")/$chip
}

# ---- the tests -------------------------------------------------------------------------
# Every synthetic trace (CSV and binary) and every recording (with its compiled configuration,
# TRACE.pcfg: the whole tick) through `poise-board replay` on the Arm kernel, byte for byte
# what the host's `poise replay --quiet` wrote. Each run's peak resident set (busybox
# `time -v`) goes to /tmp/rss.txt for board-peak-rss.
test_board_replay() {
  n=0 bad=
  : > /tmp/rss.txt
  for trace in $(cat "$board/traces"); do
    config=
    [ -f "$board/$trace.pcfg" ] && config="--config $board/$trace.pcfg"
    read t0 idle < /proc/uptime
    time -v -o /tmp/time.txt "$board/poise-board" replay "$board/$trace" $config > /tmp/board.csv 2> /tmp/board.err
    status=$?
    read t1 idle < /proc/uptime
    echo "$trace $(sed -n 's/.*Maximum resident set size (kbytes): *\([0-9]*\).*/\1/p' /tmp/time.txt)" >> /tmp/rss.txt
    took="$(wc -l < /tmp/board.csv) lines, $(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }') s in the guest"
    if [ $status -ne 0 ]; then
      echo "$trace: exit $status: $(head -1 /tmp/board.err)"; bad="$bad $trace"
    elif cmp /tmp/board.csv "$board/$trace.expected"; then
      echo "$trace: identical ($took)"
    else
      echo "$trace: differs ($took); the first differing line, the board's then the host's:"
      line=$(cmp /tmp/board.csv "$board/$trace.expected" | sed -n 's/.* line \([0-9]*\).*/\1/p')
      [ -n "$line" ] && { sed -n "${line}p" /tmp/board.csv; sed -n "${line}p" "$board/$trace.expected"; }
      bad="$bad $trace"
    fi
    n=$((n + 1))
  done
  rm -f /tmp/board.csv
  [ $n -gt 0 ] || { why="no traces in $board/traces"; return 1; }
  [ -z "$bad" ] || { why="differs from the host's poise replay:$bad"; return 1; }
  detail="$n traces"
}

# The board binary's peak resident set (ru_maxrss, the kernel's VmHWM at exit) in each of
# board-replay-identical's replays; the largest is reported (and kept in
# RESULTS/board-peak-rss.txt).
test_board_peak_rss() {
  peak=0 at=
  [ -s /tmp/rss.txt ] || { why="no measurements from board-replay-identical"; return 1; }
  while read trace kb; do
    echo "$trace: peak RSS ${kb:-?} kB"
    [ -n "$kb" ] || { why="time -v printed no maximum resident set size for $trace"; return 1; }
    [ "$kb" -gt "$peak" ] && peak=$kb at=$trace
  done < /tmp/rss.txt
  [ "$peak" -gt 0 ] || { why="no measurement"; return 1; }
  echo "$peak $at" > "$results/board-peak-rss.txt"
  detail="peak RSS $peak kB, $at"
}

# i2c-dev and the cross-built i2c-stub on the arm64 kernel: the adapter and its /dev node,
# a register written and read back, both addresses answering i2cdetect.
test_i2c_stub() {
  setup_i2c_stub || { why="i2c-dev or i2c-stub not loaded, or no SMBus stub adapter: $(dmesg | tail -2 | tr '\n' ' ')"; return 1; }
  dev=/dev/i2c-$bus
  [ -c "$dev" ] || { why="$dev is not a character device"; return 1; }
  i2cset -y "$bus" 0x68 0x75 0x71
  who=$(i2cget -y "$bus" 0x68 0x75)
  echo "WHO_AM_I $who"
  [ "$who" = 0x71 ] || { why="0x68 register 0x75 reads '$who', written 0x71"; return 1; }
  i2cdetect -y -r "$bus" > /tmp/detect.txt
  cat /tmp/detect.txt
  grep -q '^60:.* 68' /tmp/detect.txt && grep -q '^00:.* 0c' /tmp/detect.txt \
    || { why="i2cdetect does not show 0x68 and 0x0c: $(grep -E '^(00|60):' /tmp/detect.txt | tr '\n' ' ')"; return 1; }
  detail="$dev"
}

# gpio-sim on the arm64 kernel: a chip through configfs, its character device, a line's level
# following the simulated pull.
test_gpio_sim() {
  setup_gpio_sim || { why="gpio-sim not loaded or the chip not made: $(dmesg | tail -2 | tr '\n' ' ')"; return 1; }
  [ -c "/dev/$chip" ] || { why="/dev/$chip is not a character device"; return 1; }
  echo pull-up > "$lines/sim_gpio5/pull"
  up=$(cat "$lines/sim_gpio5/value")
  echo pull-down > "$lines/sim_gpio5/pull"
  down=$(cat "$lines/sim_gpio5/value")
  echo "$chip: line 5 pulled up reads $up, pulled down reads $down"
  [ "$up" = 1 ] && [ "$down" = 0 ] || { why="line 5 reads $up pulled up, $down pulled down"; return 1; }
  detail="/dev/$chip"
}

# The lock-free hand-overs under the litmus program (Tests/litmus), on both vCPUs.
test_litmus() {
  [ -x "$board/poise-litmus" ] || { why="no $board/poise-litmus (scripts/build-litmus failed?)"; return 1; }
  echo "vCPUs: $(nproc)"
  # Fewer values than under qemu-aarch64 on the host: the VM emulates a whole machine, and a
  # hand-over between two vCPUs that the loaded host does not run at once waits for a switch.
  timeout 300 "$board/poise-litmus" --iterations 2000 --pairs 2
  status=$?
  [ $status -ne 143 ] || { why="not finished in 300 s (the host too loaded to run both vCPUs?)"; return 1; }
  [ $status -eq 0 ] || { why="exit $status: $(grep -m1 FAIL "$results/hand-over-litmus.log")"; return 1; }
  detail="$(tail -1 "$results/hand-over-litmus.log")"
}

# The x86 VM's board pass, the same test bodies (Tests/vm/guest-tests.sh with
# POISE_PROGRAM=board) on the Arm kernel, each its own board-… line before this one: probe,
# configuration registers, absent address, GPIO safe at start, held line named with its holder,
# armed, chip reset, device taken away and back, disarm, SIGTERM with the recording replayed,
# the arming switch. Its configurations were compiled on the host (POISE_CONFIGS); it uses
# busybox's i2cset and i2cget; the host compares the board's replay of its recording with its
# own after the VM (scripts/kernel-test-arm64: board-run-replay-matches-host). It unloads
# i2c-stub and gpio-sim when done.
test_board_io() {
  before=$(wc -l < "$summary")
  POISE_PROGRAM=board POISE_BOARD="$board/poise-board" POISE_CONFIGS="$board" I2CSET=i2cset I2CGET=i2cget \
    sh "${0%/*}/guest-tests.sh" "$results" "/lib/modules/$(uname -r)/extra/gpio-sim.ko"
  passed=$(sed -n "$((before + 1)),\$p" "$summary" | grep -c '^PASS board-')
  failed=$(sed -n "$((before + 1)),\$p" "$summary" | grep -c '^FAIL')
  [ "$failed" = 0 ] || { why="$failed of its tests failed (above)"; return 1; }
  [ "$passed" -gt 0 ] || { why="no tests ran"; return 1; }
  detail="$passed tests above; $(cat "$results/board-run-rss.log" 2>/dev/null)"
}

# ---- the runner ------------------------------------------------------------------------
set -- $TESTS
while [ $# -ge 2 ]; do
  name=$1 function=$2
  shift 2
  why= detail=
  read started idle < /proc/uptime
  if $function > "$results/$name.log" 2>&1; then
    echo "PASS $name${detail:+ ($detail)}" >> "$summary"
  else
    echo "FAIL $name: ${why:-see $name.log}" >> "$summary"
  fi
  read ended idle < /proc/uptime
  echo "$name $started $ended" | awk '{ printf "%s %.1f s (from %.1f s after boot)\n", $1, $3 - $2, $2 }' >> "$results/timings"
done
echo "done" >> "$results/guest.done"
