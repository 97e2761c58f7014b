command: cargo clippy --offline -- -D warnings
version: clippy 0.1.95 (59807616e1 2026-04-14)
exit: 101
