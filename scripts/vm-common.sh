# Shared by the kernel-test VMs (sourced, not run): scripts/kernel-test (x86-64, the host's own
# Debian kernel) and scripts/kernel-test-arm64 (aarch64, Debian's arm64 kernel). Each script
# sets `vm_name` (its name in messages) and `cache` (its cache directory) before calling these.

vm_note() { echo "$vm_name: $*" >&2; }

# vm_install PACKAGE…: installs what is missing through apt-get (root, or passwordless sudo),
# the log appended to $cache/apt.log. Returns 1 and sets `vm_missing` when it cannot.
vm_install() {
  local p sudo
  vm_missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || vm_missing+=("$p")
  done
  ((${#vm_missing[@]})) || return 0
  if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo -n); fi
  vm_note "installing ${vm_missing[*]}"
  { "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive INITRD=No apt-get install -y -qq --no-install-recommends "${vm_missing[@]}" \
      || { "${sudo[@]}" apt-get update -qq \
           && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive INITRD=No apt-get install -y -qq --no-install-recommends "${vm_missing[@]}"; }; \
  } >>"$cache/apt.log" 2>&1
}

# vm_build_modules KERNEL_BUILD_DIR LOG DEST MODULE… [-- MAKE_ARG…]: builds kernel simulators
# Debian's kernels leave out, out of tree from linux-source-6.1, for exactly the kernel whose
# build directory is given. DEST is the path of each module with % for its name. Modules:
#   gpio-sim   drivers/gpio/gpio-sim.c and gpiolib.h, plus kernel/irq/irq_sim.c (CONFIG_IRQ_SIM
#              is off too), whose one call to the unexported irq_to_desc() becomes
#              generic_handle_irq()
#   i2c-stub   drivers/i2c/i2c-stub.c (in the amd64 kernel package, not in the arm64 one)
# MAKE_ARGs after -- go to make (ARCH=, CROSS_COMPILE= for another architecture). A module that
# fails to build is simply absent (the log says why).
vm_build_modules() {
  local kdir=$1 log=$2 dest=$3 build m
  shift 3
  local modules=() files=()
  while (($#)) && [ "$1" != -- ]; do modules+=("$1"); shift; done
  [ "${1:-}" = -- ] && shift
  for m in "${modules[@]}"; do
    case $m in
      gpio-sim) files+=('*/drivers/gpio/gpio-sim.c' '*/drivers/gpio/gpiolib.h' '*/kernel/irq/irq_sim.c') ;;
      i2c-stub) files+=('*/drivers/i2c/i2c-stub.c') ;;
    esac
  done
  build=$(mktemp -d)
  if tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$build" --wildcards --strip-components=1 "${files[@]}" 2>>"$log"; then
    mkdir -p "$build/mod"
    : > "$build/mod/Kbuild"
    for m in "${modules[@]}"; do
      case $m in
        gpio-sim)
          cp "$build/drivers/gpio/gpio-sim.c" "$build/mod/gpio-sim-main.c"
          cp "$build/drivers/gpio/gpiolib.h" "$build/mod/"
          sed 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' "$build/kernel/irq/irq_sim.c" > "$build/mod/poise-irq-sim.c"
          printf 'obj-m += gpio-sim.o\ngpio-sim-y := gpio-sim-main.o poise-irq-sim.o\n' >> "$build/mod/Kbuild" ;;
        i2c-stub)
          cp "$build/drivers/i2c/i2c-stub.c" "$build/mod/"
          printf 'obj-m += i2c-stub.o\n' >> "$build/mod/Kbuild" ;;
      esac
    done
    if make -s -C "$kdir" M="$build/mod" "$@" modules >>"$log" 2>&1; then
      for m in "${modules[@]}"; do cp "$build/mod/$m.ko" "${dest//%/$m}"; done
    fi
  fi
  rm -rf "$build"
}

# vm_stage_modules STAGING MODINFO_ARG… -- MODULE…: copies MODULEs and what they depend on
# (as modinfo with MODINFO_ARGs finds them: -k VERSION, and -b ABSOLUTE_BASE for a kernel not
# installed on this host) into STAGING/modules in load order, listed in STAGING/modules/order for
# Tests/vm/init.
vm_stage_modules() {
  local staging=$1 arg
  shift
  local info=()
  while (($#)) && [ "$1" != -- ]; do info+=("$1"); shift; done
  shift
  vm_order=()
  mkdir -p "$staging/modules"
  for arg in "$@"; do vm_add_module "$staging" "$arg"; done
  printf '%s\n' "${vm_order[@]}" > "$staging/modules/order"
}
vm_add_module() {
  local staging=$1 name=$2 path deps d
  for d in "${vm_order[@]:-}"; do [ "$d" = "$name" ] && return; done
  path=$(modinfo "${info[@]}" -n "$name" 2>/dev/null) || return 0
  [ "$path" = "(builtin)" ] && return 0
  deps=$(modinfo "${info[@]}" -F depends "$name" | tr ',' ' ')
  for d in $deps; do vm_add_module "$staging" "$d"; done
  vm_order+=("$name")
  cp "$path" "$staging/modules/$name.ko"
}

# vm_run_guest RESULTS TIMEOUT LABEL QEMU_COMMAND…: boots the guest (RESULTS emptied first;
# the console in $cache/console.log), then prints RESULTS/summary and how long boot → results
# took. Returns 1 when the guest produced no results or any test failed; a guest stopped by
# the timeout before its last test adds `FAIL guest-finished`.
vm_run_guest() {
  local results=$1 limit=$2 label=$3 start status elapsed f
  shift 3
  rm -rf "$results"; mkdir -p "$results"
  start=$(date +%s.%N)
  timeout "$limit" "$@" > "$cache/console.log" 2>&1
  status=$?
  elapsed=$(echo "$(date +%s.%N) - $start" | bc)
  if [ ! -s "$results/summary" ]; then
    vm_note "FAILED: the guest produced no results (qemu exit $status); console: $cache/console.log"
    tail -20 "$cache/console.log" >&2
    return 1
  fi
  # A guest stopped by the timeout leaves its last tests without a line: that is a failure, not a pass.
  if [ ! -f "$results/guest.done" ]; then
    echo "FAIL guest-finished: the guest was stopped (qemu exit $status, $limit s timeout?) before its last test; the tests after the last line above have no result (console: $cache/console.log)" >> "$results/summary"
  fi
  cat "$results/summary"
  echo "$vm_name: boot → results in ${elapsed%.*}.$(echo "$elapsed" | cut -d. -f2 | cut -c1-1) s ($label)"
  if grep -q '^FAIL' "$results/summary"; then
    for f in "$results"/*.log; do echo "--- $f"; tail -15 "$f"; done
    return 1
  fi
  return 0
}
