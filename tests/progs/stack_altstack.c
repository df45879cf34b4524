/* stack_altstack.c: deep stack use that is NOT on a thread's stack, which
   --stacks=yes must ignore: a signal handler recursing ~200 KB deep on an
   alternate signal stack (sigaltstack, as Rust sets up for every thread),
   and a coroutine (ucontext) recursing ~200 KB deep on a heap-allocated
   stack. The thread's own stack stays shallow (a few KB).
   Usage: stack_altstack */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#define ALT_SZ  (1 << 20)
#define DEPTH   200                 /* x ~1 KB */

static ucontext_t main_ctx, co_ctx;
static volatile int sink;

static int recurse(int depth)
{
    volatile char frame[1000];
    memset((char *)frame, depth & 0xff, sizeof frame);
    if (depth == 0) {
        free(malloc(64));            /* a snapshot chance at the deepest point */
        return frame[1];
    }
    return recurse(depth - 1) + frame[depth % sizeof frame];
}

static void on_signal(int sig) { (void)sig; sink += recurse(DEPTH); }
static void coroutine(void) { sink += recurse(DEPTH); }

int main(void)
{
    stack_t ss;
    struct sigaction sa;
    char *co_stack;

    ss.ss_sp = malloc(ALT_SZ);
    ss.ss_size = ALT_SZ;
    ss.ss_flags = 0;
    if (sigaltstack(&ss, NULL) != 0) { perror("sigaltstack"); return 1; }
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_ONSTACK;
    sigaction(SIGUSR1, &sa, NULL);
    raise(SIGUSR1);

    co_stack = malloc(ALT_SZ);
    getcontext(&co_ctx);
    co_ctx.uc_stack.ss_sp = co_stack;
    co_ctx.uc_stack.ss_size = ALT_SZ;
    co_ctx.uc_link = &main_ctx;
    makecontext(&co_ctx, coroutine, 0);
    swapcontext(&main_ctx, &co_ctx);

    free(malloc(32));                /* a snapshot after both */
    printf("%d\n", sink & 1);
    return 0;
}
