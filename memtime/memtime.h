/* memtime.h: client requests a program can make to memtime.
 *
 *   #include <memtime.h>
 *   MEMTIME_MARK("compaction");   a named phase mark at the current time
 *   MEMTIME_SNAPSHOT();           a detailed snapshot (allocation tree) now
 *
 * Self-contained (needs no other header, only -I of the directory holding it)
 * and free when the program does not run under Valgrind: each request is a
 * few rotate instructions that Valgrind recognises and a real CPU executes as
 * no-ops. Under another Valgrind tool the requests are ignored. Each macro
 * evaluates to 1 when memtime handled the request, 0 otherwise.
 *
 * The protocol, for other languages (see docs/client-requests.md): put six
 * 64-bit words {request, arg1..arg5} in memory, load their address into rax
 * and the default result (0) into rdx, execute
 *     rol rdi,3 ; rol rdi,13 ; rol rdi,61 ; rol rdi,51 ; xchg rbx,rbx
 * and read the result from rdx. Requests: MEMTIME_REQ_MARK (arg1 = pointer to a
 * NUL-terminated label), MEMTIME_REQ_SNAPSHOT (no arguments).
 *
 * Copyright (C) 2026 the memtime authors. GPL-2.0-or-later, like the tool. */
#ifndef MEMTIME_H
#define MEMTIME_H

/* Tool requests are ('M' << 24 | 'T' << 16) + n, as Valgrind's
 * VG_USERREQ_TOOL_BASE('M','T') defines them. */
#define MEMTIME_REQ_BASE      ((unsigned long)(((unsigned)'M' << 24) | ((unsigned)'T' << 16)))
#define MEMTIME_REQ_MARK      (MEMTIME_REQ_BASE + 0)
#define MEMTIME_REQ_SNAPSHOT  (MEMTIME_REQ_BASE + 1)

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(MEMTIME_DISABLE)
static __inline__ unsigned long
memtime_client_request_(unsigned long req, unsigned long a1, unsigned long a2,
                        unsigned long a3, unsigned long a4, unsigned long a5)
{
    volatile unsigned long args[6];
    unsigned long result = 0;
    args[0] = req; args[1] = a1; args[2] = a2;
    args[3] = a3;  args[4] = a4; args[5] = a5;
    __asm__ __volatile__("rolq $3,  %%rdi ; rolq $13, %%rdi\n\t"
                         "rolq $61, %%rdi ; rolq $51, %%rdi\n\t"
                         "xchgq %%rbx,%%rbx"
                         : "=d"(result)
                         : "a"(&args[0]), "0"(result)
                         : "cc", "memory");
    return result;
}
static __inline__ int memtime_mark_(const char *label)
{
    return (int)memtime_client_request_(MEMTIME_REQ_MARK, (unsigned long)label, 0, 0, 0, 0);
}
static __inline__ int memtime_snapshot_(void)
{
    return (int)memtime_client_request_(MEMTIME_REQ_SNAPSHOT, 0, 0, 0, 0, 0);
}
#else
static __inline__ int memtime_mark_(const char *label) { (void)label; return 0; }
static __inline__ int memtime_snapshot_(void) { return 0; }
#endif
/* Functions, not expressions, so a bare MEMTIME_MARK("x"); draws no warning. */
#define MEMTIME_MARK(label) memtime_mark_(label)
#define MEMTIME_SNAPSHOT() memtime_snapshot_()

#endif
