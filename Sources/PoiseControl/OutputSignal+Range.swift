
extension OutputSignal {
    /// The signal's own range: what `input_min`/`input_max` default to.
    public var naturalRange: ClosedRange<Float> {
        switch self {
        case .motor1, .motor2, .motor3, .motor4, .motor5, .motor6, .motor7, .motor8,
             .leftWheelDuty, .rightWheelDuty,
             .leftWheelForward, .leftWheelReverse, .rightWheelForward, .rightWheelReverse,
             .armed, .fault, .faceDown, .atRest:
            0...1
        case .leftWheel, .rightWheel:
            -1...1
        case .pitch, .roll, .yaw:
            -Float.pi...Float.pi
        }
    }
}
