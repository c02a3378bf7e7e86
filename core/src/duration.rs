//! Go-style durations. (stub: being written)
