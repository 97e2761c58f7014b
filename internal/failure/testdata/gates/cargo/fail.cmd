command: cargo test --offline
version: cargo 1.95.0 (f2d3ce0bd 2026-03-21)
exit: 101
