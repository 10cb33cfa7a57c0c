// PoiseMath: attitude mathematics without Foundation. Hot-path helpers are `@inlinable`.
