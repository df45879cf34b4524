/* memtime.h: client requests for memtime (placeholder). */
#ifndef MEMTIME_H
#define MEMTIME_H
#endif
