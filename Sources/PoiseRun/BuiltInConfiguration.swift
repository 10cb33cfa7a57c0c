/// The configuration `poise run` uses without `--config`: configs/sim-balancing-robot.yaml,
/// built in so the binary runs anywhere (a test keeps the two equal).
public enum BuiltInConfiguration {
    public static let name = "built-in configs/sim-balancing-robot.yaml"
    public static let text = """
# The built-in default of `poise run`: a two-wheeled balancing robot in the simulation.
# The simulated MPU-9250 rides on the robot's body; two H-bridge channels (PWM magnitude +
# two direction pins each, as a TB6612FNG wants) drive its wheels, and the plant reads the
# simulated pins. `poise run` with no --config runs exactly this file's values. The
# sensor.calibration block is what `poise calibrate accel|mag --board sim --config THIS --save`
# measured on the simulated chip, as a user calibrates a real board before flying it.
board:
  kind: sim
  gpio_chip: gpiochip0
  pwm_chip: 0

sensor:
  sample_rate_hz: 1000
  dlpf_hz: 184
  calibration:
    accelerometer_offset: [0.0790782, -0.11974573, 0.20047092]
    accelerometer_scale: [1.0099791, 0.99509305, 1.0197344]
    magnetometer_hard_iron: [11.966808, -7.9942536, 24.999828]
    magnetometer_soft_iron: [[0.94065046, -0.018947527, -0.00011345543], [-0.018947527, 1.0229521, -0.010172216], [-0.00011345543, -0.010172216, 0.9912865]]

filter:
  name: poise

controller:
  kind: balance

safety:
  max_tilt_deg: 45
  arm_tilt_deg: 15
  arm_hold_s: 0.5

outputs:
  channels:
    - {name: left_pwm, kind: pwm, chip: 0, channel: 0, period_us: 50, source: left_wheel_duty, input_min: 0, input_max: 1, duty_min: 0, duty_max: 1, safe_duty: 0}
    - {name: right_pwm, kind: pwm, chip: 0, channel: 1, period_us: 50, source: right_wheel_duty, input_min: 0, input_max: 1, duty_min: 0, duty_max: 1, safe_duty: 0}
    - {name: left_in1, kind: gpio, line: 5, source: left_wheel_forward, safe_value: 0}
    - {name: left_in2, kind: gpio, line: 6, source: left_wheel_reverse, safe_value: 0}
    - {name: right_in1, kind: gpio, line: 13, source: right_wheel_forward, safe_value: 0}
    - {name: right_in2, kind: gpio, line: 19, source: right_wheel_reverse, safe_value: 0}
    - {name: standby, kind: gpio, line: 26, source: armed, safe_value: 0}

loop:
  rate_hz: 1000
  gyroscope_bias_time: 1
  # SCHED_FIFO where permitted (root, CAP_SYS_NICE or an rtprio limit; it warns otherwise): on a
  # busy desktop an ordinary thread can wait longer than safety.stall_ms and fail safe.
  realtime_priority: 50

simulation:
  plant: auto
  initial_tilt_deg: 10

"""
}
