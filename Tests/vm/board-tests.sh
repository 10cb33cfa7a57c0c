#!/bin/sh
# Guest tests of the aarch64 VM (scripts/kernel-test-arm64), run by Tests/vm/init: the static
# board binary and the kernel interfaces it will drive, on Debian's arm64 kernel. Busybox sh;
# busybox's own i2cdetect/i2cget/i2cset, time and cmp (nothing of the host's is mounted).
# Writes RESULTS/summary (one PASS/FAIL line per test), RESULTS/NAME.log per test and
# RESULTS/timings (each test's seconds, and when it started after boot). The
# inputs are in RESULTS/../board/ (scripts/kernel-test-arm64 step 2): poise-board,
# poise-litmus, synthetic traces, recordings with their compiled configurations
# (TRACE.pcfg) and the host's replay of each (TRACE.expected).
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
i2c-stub-interface           test_i2c_stub
gpio-sim-interface           test_gpio_sim
hand-over-litmus             test_litmus
board-probe                  test_board_probe
board-run-gpio               test_board_run_gpio
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
# what the host's `poise replay --quiet` wrote.
test_board_replay() {
  n=0 bad=
  for trace in $(cat "$board/traces"); do
    config=
    [ -f "$board/$trace.pcfg" ] && config="--config $board/$trace.pcfg"
    read t0 idle < /proc/uptime
    "$board/poise-board" replay "$board/$trace" $config > /tmp/board.csv 2> /tmp/board.err
    status=$?
    read t1 idle < /proc/uptime
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

# The board binary's peak resident set (ru_maxrss, the kernel's VmHWM at exit) replaying each
# trace; the largest is reported (and kept in RESULTS/board-peak-rss.txt).
test_board_peak_rss() {
  peak=0 at=
  for trace in $(cat "$board/traces"); do
    config=
    [ -f "$board/$trace.pcfg" ] && config="--config $board/$trace.pcfg"
    time -v "$board/poise-board" replay "$board/$trace" $config -o /tmp/board.csv 2> /tmp/time.txt
    kb=$(sed -n 's/.*Maximum resident set size (kbytes): *\([0-9]*\).*/\1/p' /tmp/time.txt)
    echo "$trace: peak RSS ${kb:-?} kB"
    [ -n "$kb" ] || { why="time -v printed no maximum resident set size: $(tail -1 /tmp/time.txt)"; return 1; }
    [ "$kb" -gt "$peak" ] && peak=$kb at=$trace
  done
  rm -f /tmp/board.csv
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

# The stub chips' registers as an MPU-9250 and its AK8963 hold them: WHO_AM_I, data ready, one
# data frame (1 g on z; gyroscope 164 and -328 LSB), the AK8963's WIA, fuse ROM and a field.
load_chip() {
  i2cset -y "$bus" 0x68 0x75 0x71; i2cset -y "$bus" 0x68 0x3a 0x01
  reg=0x3b
  for byte in 0x00 0x00 0x00 0x00 0x08 0x00 0x00 0x00 0x00 0xa4 0x00 0x00 0xfe 0xb8; do
    i2cset -y "$bus" 0x68 $reg $byte; reg=$(printf '0x%02x' $((reg + 1)))
  done
  i2cset -y "$bus" 0x0c 0x00 0x48
  for r in 0x10 0x11 0x12; do i2cset -y "$bus" 0x0c $r 0x80; done
  i2cset -y "$bus" 0x0c 0x02 0x01
  reg=0x03
  for byte in 0x64 0x00 0xc8 0x00 0x9c 0xff; do i2cset -y "$bus" 0x0c $reg $byte; reg=$(printf '0x%02x' $((reg + 1))); done
  i2cset -y "$bus" 0x0c 0x09 0x10
}

# `poise-board probe` on the Arm kernel's i2c-dev: both chips named, the frame's exact values.
test_board_probe() {
  setup_i2c_stub || { why="no SMBus stub adapter"; return 1; }
  load_chip
  "$board/poise-board" probe --bus "/dev/i2c-$bus" --samples 2
  status=$?
  [ $status -eq 0 ] || { why="exit $status"; return 1; }
  grep -q "0x68: WHO_AM_I 0x71 → MPU-9250" "$results/board-probe.log" \
    && grep -q "AK8963 at 0x0C (WIA 0x48), ASA 0x80 0x80 0x80" "$results/board-probe.log" \
    || { why="chips not identified"; return 1; }
  row=$(grep -E '^ +0\.[0-9]+ ' "$results/board-probe.log" | head -1)
  set -- $row
  [ "$4" = "9.807" ] && [ "$5" = "0.1747" ] && [ "$7" = "-0.3494" ] && [ "$8" = "30.0" ] \
    || { why="unexpected sample row: $row"; return 1; }
  detail="/dev/i2c-$bus"
}

# `poise-board run` on the Arm kernel: the compiled Tests/vm/board-gpio.yaml drives three
# gpio-sim lines — safe at start, following the signals once armed — and SIGTERM ends it with
# exit 0 and a recording; the board replays it here and the host compares with its own
# `poise replay` after the VM (scripts/kernel-test-arm64: board-run-replay-matches-host).
test_board_run_gpio() {
  setup_i2c_stub && setup_gpio_sim || { why="i2c-stub or gpio-sim not set up"; return 1; }
  [ "$bus" = 0 ] || { why="the stub is /dev/i2c-$bus, the compiled configuration names /dev/i2c-0"; return 1; }
  load_chip
  for r in 0x43 0x44 0x45 0x46 0x47 0x48; do i2cset -y "$bus" 0x68 $r 0x00; done
  rm -f /tmp/stop-toggle
  ( while [ ! -e /tmp/stop-toggle ]; do
      i2cset -y "$bus" 0x68 0x40 0x01; usleep 3000; i2cset -y "$bus" 0x68 0x40 0x02; usleep 3000
    done ) &
  level() { cat "$lines/sim_gpio$1/value"; }
  wait_for() { i=0; while [ $i -lt $(( $3 * 10 )) ]; do [ "$(level "$1")" = "$2" ] && return 0; usleep 100000; i=$((i + 1)); done; return 1; }
  "$board/poise-board" run --config "$board/board-gpio.pcfg" --duration 120 --record /tmp/arm-run.csv > /tmp/arm-run.log 2>&1 &
  runner=$!
  safe=no armed=no
  wait_for 2 1 60 && [ "$(level 1)" = 0 ] && [ "$(level 3)" = 1 ] && safe=yes
  wait_for 1 1 60 && [ "$(level 2)" = 0 ] && armed=yes
  # Its peak resident set so far, armed and recording (the kernel's VmHWM).
  hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$runner/status" 2>/dev/null)
  echo "peak RSS of poise-board run (50 Hz, recording, armed): ${hwm:-?} kB"
  kill -TERM $runner
  wait $runner
  status=$?
  touch /tmp/stop-toggle
  cat /tmp/arm-run.log
  cp /tmp/arm-run.csv "$results/board-run.csv"
  "$board/poise-board" replay /tmp/arm-run.csv --config "$board/board-gpio.pcfg" -o "$results/board-run-replayed.csv"
  [ $safe = yes ] || { why="not safe at start: armed=$(level 1) fault=$(level 2) direction=$(level 3)"; return 1; }
  [ $armed = yes ] || { why="never armed: $(tail -2 /tmp/arm-run.log | tr '\n' ' ')"; return 1; }
  [ $status -eq 0 ] && grep -q "stopped by SIGTERM" /tmp/arm-run.log || { why="exit $status after SIGTERM"; return 1; }
  detail="safe at start, armed, SIGTERM exit 0, $(wc -l < /tmp/arm-run.csv) recorded lines, peak RSS ${hwm:-?} kB"
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
