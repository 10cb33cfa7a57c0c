// PoiseThreads: what runs beside the tick and what passes between the threads — one
// worker-thread type (`WorkerThread`) and the lock-free hand-overs: the triple buffer, the
// settings mailbox, the tick-record ring and the arming-switch and wheel-encoder states.
// Wait-free on the tick's side; the checked entry points the loop calls are in HandOver+Checked.
