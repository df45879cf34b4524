/* stack_paths.c: allocations whose call stacks are easy to confuse, for
   the stack cache (memtime/mt_unwind.c). Every phase reaches malloc with
   the same registers through different callers, or through frames whose
   size or frame pointer changes between calls, so a cache that checked too
   little would hand out the wrong stack; memtime --stack-cache=verify
   unwinds anyway and counts any difference.
     - one helper called from two callers at the same depth, alternating;
     - frames with a variable-length array of changing size (the CFA is the
       frame pointer's), called from two callers;
     - recursion to several depths, allocating at each level;
     - a signal handler allocating (the walk crosses the signal frame), on
       the thread's stack and on an alternate signal stack;
     - a coroutine on a stack of its own (swapcontext), allocating;
     - longjmp out of a deep recursion, then the same helper from elsewhere;
     - four threads running the same paths.
   Built twice by the test: -O2 (frame pointers used as registers) and
   -O0 -fno-omit-frame-pointer (every frame on its frame pointer).
   Usage: stack_paths [rounds [threads]]   (default 200 rounds, 4 threads) */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#define NOINLINE __attribute__((noinline))

static void* volatile sink[64];
static unsigned sink_i;

static NOINLINE void keep(void* p)
{
    unsigned i = __atomic_fetch_add(&sink_i, 1, __ATOMIC_RELAXED) % 64;
    void* old = __atomic_exchange_n(&sink[i], p, __ATOMIC_RELAXED);
    free(old);
}

static NOINLINE void leaf(size_t n) { keep(malloc(n)); }
static NOINLINE void caller_a(size_t n) { leaf(n + 1); }
static NOINLINE void caller_b(size_t n) { leaf(n + 2); }

/* A frame whose size changes with n: its CFA is its frame pointer. */
static NOINLINE void vla_leaf(size_t n)
{
    volatile char buf[n];
    buf[0] = 1;
    keep(malloc(16 + buf[0] + n % 7));
}
static NOINLINE void vla_a(size_t n) { vla_leaf(n); }
static NOINLINE void vla_b(size_t n) { vla_leaf(n * 3); }

static NOINLINE void recurse(int depth, size_t n)
{
    if (depth > 0)
        recurse(depth - 1, n);
    keep(malloc(n + (size_t)depth));
}

static void on_signal(int sig)
{
    (void)sig;
    caller_a(40);   /* malloc in a handler: not async-signal-safe, but the
                       program raises the signal itself, outside malloc */
}

static ucontext_t main_ctx, co_ctx;
static void coroutine(void)
{
    int i;
    for (i = 0; i < 3; i++) {
        caller_b(48);
        recurse(3, 24);
        swapcontext(&co_ctx, &main_ctx);
    }
}

static jmp_buf jb;
static NOINLINE void dive(int depth)
{
    if (depth == 0) {
        caller_a(56);
        longjmp(jb, 1);
    }
    dive(depth - 1);
}

static void round_of(int r)
{
    int k;
    for (k = 0; k < 4; k++) {
        caller_a((size_t)k * 8);
        caller_b((size_t)k * 8);
    }
    vla_a(64 + (size_t)(r % 5) * 100);
    vla_b(32 + (size_t)(r % 3) * 40);
    vla_a(200);
    recurse(r % 9, 32);
    recurse((r + 4) % 9, 32);
    if (setjmp(jb) == 0)
        dive(5 + r % 4);
    caller_b(64);
}

static void* thread_main(void* arg)
{
    int r, rounds = *(int*)arg;
    for (r = 0; r < rounds; r++)
        round_of(r);
    return NULL;
}

int main(int argc, char** argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 200, r, i;
    int n_threads = argc > 2 ? atoi(argv[2]) : 4;
    static char altstack[64 * 1024];
    static char co_stack[64 * 1024];
    stack_t ss;
    struct sigaction sa;
    pthread_t th[4];

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGUSR1, &sa, NULL);
    sa.sa_flags = SA_ONSTACK;
    sigaction(SIGUSR2, &sa, NULL);
    ss.ss_sp = altstack;
    ss.ss_size = sizeof altstack;
    ss.ss_flags = 0;
    sigaltstack(&ss, NULL);

    getcontext(&co_ctx);
    co_ctx.uc_stack.ss_sp = co_stack;
    co_ctx.uc_stack.ss_size = sizeof co_stack;
    co_ctx.uc_link = &main_ctx;
    makecontext(&co_ctx, coroutine, 0);

    for (r = 0; r < rounds; r++) {
        round_of(r);
        if (r % 10 == 0) {
            raise(SIGUSR1);
            raise(SIGUSR2);
        }
        if (r % 50 == 0 && r / 50 < 3)
            swapcontext(&main_ctx, &co_ctx);
    }
    for (i = 0; i < n_threads && i < 4; i++)
        pthread_create(&th[i], NULL, thread_main, &rounds);
    for (i = 0; i < n_threads && i < 4; i++)
        pthread_join(th[i], NULL);
    for (i = 0; i < 64; i++)
        free(sink[i]);
    printf("%d rounds\n", rounds);
    return 0;
}
