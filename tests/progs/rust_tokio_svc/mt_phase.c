/* mt_phase.c: memtime's client requests for rust_tokio_svc (Rust cannot
 * include memtime.h): mark a phase and ask for a snapshot, which takes a
 * resident-memory reading. Outside Valgrind both do nothing. */
#include "memtime.h"

void mt_phase(const char *label)
{
    MEMTIME_MARK(label);
    MEMTIME_SNAPSHOT();
}
