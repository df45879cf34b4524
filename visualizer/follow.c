/* follow.c: memtime-vis --follow (follow.h): the loop that polls the
 * followed files (model/follow_state.c), and the terminal it keeps current.
 *
 * This is the one module besides main.c that writes to stdout: a live view
 * has to redraw the terminal while it runs and read the keyboard, which
 * cannot wait for main. Everything about the terminal is here and only
 * here: its mode (termios: no echo, no line buffering, restored on every
 * way out), its size (TIOCGWINSZ, again at each SIGWINCH), the escapes
 * (plain ANSI: cursor home, erase to the end of line and screen, cursor
 * hidden while drawing; no curses, which would add a dependency for four
 * escapes), Ctrl-Z (the terminal given back before the stop, taken again
 * after it). What a frame says is render/follow_view.c's. Signals only write
 * a byte to a pipe the loop polls, beside stdin, with a timeout that sets
 * the pace of the file checks.
 *
 * When stdout is not a terminal there is no frame: one plain line per
 * change, and the loop ends when the run is over. */
#define _DEFAULT_SOURCE 1   /* TIOCGWINSZ, struct winsize */
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "base/strfmt.h"
#include "exit_status.h"
#include "follow.h"
#include "model/follow_state.h"
#include "read/dumps.h"
#include "read/follow_watch.h"
#include "read/load.h"
#include "render/follow_view.h"

/* How often the files are looked at (one stat of each per poll). */
#define POLL_MS 200

static int wake_pipe[2] = { -1, -1 };
static volatile sig_atomic_t got_winch, got_quit, got_stop;

static void on_signal(int sig)
{
    int saved = errno;
    if (sig == SIGWINCH)
        got_winch = 1;
    else if (sig == SIGTSTP)
        got_stop = 1;
    else
        got_quit = 1;
    if (wake_pipe[1] >= 0 && write(wake_pipe[1], "x", 1) < 0) {
        /* full: the loop is woken already */
    }
    errno = saved;
}

/* The loop's state: the followed thing, the terminal, the last output. */
/* A directory of heap dumps: the newest series, converted into a
 * temporary profile (removed at the end) each time it changes; a dump
 * caught half written fails to convert and is tried again at the next
 * change, the last good conversion staying on view meanwhile. */
typedef struct {
    char *tmpdir, *out, *comp;
    char *sig;               /* the series as last converted */
} dump_watch;

typedef struct {
    const vis_follow_opts *o;
    dump_watch *dumps;       /* DIR of heap dumps */
    vis_follow_file *live;   /* FILE */
    vis_follow_dir *dir;     /* DIR */
    int tty, keys, utf8;
    struct termios saved;
    int termios_saved;
    int cols, rows;
    char *last;              /* the last frame or line(s) written */
    size_t last_len;
    char *err;
    size_t errsz;
} follow;

/* Writes all of buf to stdout. 0, or -1 with err. */
static int put(follow *f, const char *buf, size_t n)
{
    while (n) {
        ssize_t w = write(STDOUT_FILENO, buf, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            snprintf(f->err, f->errsz, "stdout: write error: %s", strerror(errno ? errno : EIO));
            return -1;
        }
        buf += w;
        n -= (size_t)w;
    }
    return 0;
}

static void term_size(follow *f)
{
    struct winsize ws;
    f->cols = 80;
    f->rows = 24;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0) {
        f->cols = ws.ws_col;
        f->rows = ws.ws_row;
    }
}

/* The frame, from the renderer, in memory; NULL when out of memory. */
static char *frame_text(follow *f, int interactive, size_t *len)
{
    char *buf = NULL;
    FILE *m = open_memstream(&buf, len);
    if (!m)
        return NULL;
    vis_follow_layout lay = { f->cols, f->rows, f->utf8, f->o->top, interactive, time(NULL) };
    if (f->dir)
        vis_follow_dir_frame(m, f->dir, &lay);
    else
        vis_follow_frame(m, f->live, &lay);
    if (fclose(m) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Redraws the terminal: from the top left, each line erased to its end,
 * the rest of the screen erased; nothing scrolls (the frame fits). */
static int draw(follow *f, int interactive, int force)
{
    size_t len;
    char *text = frame_text(f, interactive, &len);
    if (!text) {
        snprintf(f->err, f->errsz, "out of memory");
        return -1;
    }
    if (!force && f->last && len == f->last_len && !memcmp(text, f->last, len)) {
        free(text);
        return 0;
    }
    size_t cap = len * 2 + 64, n = 0;
    char *out = malloc(cap);
    if (!out) {
        free(text);
        snprintf(f->err, f->errsz, "out of memory");
        return -1;
    }
    n += (size_t)sprintf(out, "\033[H");
    for (size_t i = 0; i < len; i++) {
        if (text[i] != '\n') {
            out[n++] = text[i];
            continue;
        }
        memcpy(out + n, "\033[K", 3);
        n += 3;
        if (i + 1 < len) {
            memcpy(out + n, "\r\n", 2);
            n += 2;
        }
    }
    memcpy(out + n, "\033[J", 3);
    n += 3;
    int rc = put(f, out, n);
    free(out);
    free(f->last);
    f->last = text;
    f->last_len = len;
    return rc;
}

/* Without a terminal: the lines that changed since the last time (for a
 * profile, a change beyond the time its rewrite reached: memtime rewrites
 * the file several times a second even while nothing else moves). */
static int plain(follow *f)
{
    if (!f->dir) {
        char *key = NULL;
        size_t klen = 0;
        FILE *m = open_memstream(&key, &klen);
        if (!m) {
            snprintf(f->err, f->errsz, "out of memory");
            return -1;
        }
        vis_follow_line(m, f->live, 0);
        if (fclose(m) != 0 || !key) {
            free(key);
            snprintf(f->err, f->errsz, "out of memory");
            return -1;
        }
        int same = f->last && klen == f->last_len && !memcmp(key, f->last, klen);
        free(f->last);
        f->last = key;
        f->last_len = klen;
        if (same)
            return 0;
        m = open_memstream(&key, &klen);
        if (!m) {
            snprintf(f->err, f->errsz, "out of memory");
            return -1;
        }
        vis_follow_line(m, f->live, 1);
        if (fclose(m) != 0) {
            free(key);
            snprintf(f->err, f->errsz, "out of memory");
            return -1;
        }
        int rc = put(f, key, klen);
        free(key);
        return rc;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) {
        snprintf(f->err, f->errsz, "out of memory");
        return -1;
    }
    vis_follow_dir_lines(m, f->dir);
    if (fclose(m) != 0) {
        free(buf);
        snprintf(f->err, f->errsz, "out of memory");
        return -1;
    }
    /* Each line not already among the last output's lines. */
    int rc = 0;
    for (char *s = buf, *e; rc == 0 && s < buf + len; s = e + 1) {
        e = memchr(s, '\n', (size_t)(buf + len - s));
        if (!e)
            break;
        size_t n = (size_t)(e - s) + 1;
        int seen = 0;
        for (char *t = f->last, *te; t && !seen && t < f->last + f->last_len; t = te + 1) {
            te = memchr(t, '\n', (size_t)(f->last + f->last_len - t));
            if (!te)
                break;
            seen = (size_t)(te - t) + 1 == n && !memcmp(t, s, n);
        }
        if (!seen)
            rc = put(f, s, n);
    }
    free(f->last);
    f->last = buf;
    f->last_len = len;
    return rc;
}

static int suspend(follow *f);

/* Converts the directory's newest series again if it changed. */
static void dumps_poll(follow *f)
{
    dump_watch *w = f->dumps;
    char **paths, *sig, err[1024], warn[2048];
    size_t n;
    if (vis_dumps_scan_dir(f->o->path, &paths, &n, &sig, err, sizeof err) != 0)
        return;
    if (n && (!w->sig || strcmp(sig, w->sig) != 0) &&
        vis_dumps_convert((const char *const *)paths, n, f->o->dumps, w->out, NULL, 0, warn,
                          sizeof warn, err, sizeof err) == 0) {
        free(w->sig);
        w->sig = sig;
        sig = NULL;
    }
    free(sig);
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
}

static int poll_files(follow *f)
{
    if (f->dumps)
        dumps_poll(f);
    return f->dir ? vis_follow_dir_poll(f->dir) : vis_follow_file_poll(f->live);
}

/* Whether directory path holds a profile memtime (or Massif) wrote: such a
 * directory is followed as memtime's, whatever else it holds (a pprof file
 * exported beside the profiles is no series of heap dumps). */
static int has_profile(const char *path)
{
    char **names, err[256];
    size_t n;
    int found = 0;
    if (vis_dir_names(path, &names, &n, err, sizeof err) != 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char *full = found ? NULL : vis_strfmt("%s/%s", path, names[i]);
        if (full && vis_load_is_profile(full))
            found = 1;
        free(full);
        free(names[i]);
    }
    free(names);
    return found;
}

/* Whether directory path holds heap dumps and no profile memtime wrote. */
static int is_dump_dir(const char *path)
{
    char **paths, *sig, err[256];
    size_t n;
    if (has_profile(path) || vis_dumps_scan_dir(path, &paths, &n, &sig, err, sizeof err) != 0)
        return 0;
    free(sig);
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
    return n > 0;
}

static dump_watch *dumps_start(void)
{
    dump_watch *w = calloc(1, sizeof *w);
    const char *tmp = getenv("TMPDIR");
    if (!w || !(w->tmpdir = vis_strfmt("%s/memtime-vis.XXXXXX", tmp && *tmp ? tmp : "/tmp")) ||
        !mkdtemp(w->tmpdir) || !(w->out = vis_strfmt("%s/series.out", w->tmpdir)) ||
        !(w->comp = vis_strfmt("%s.memtime", w->out))) {
        if (w && w->tmpdir && !w->out)
            rmdir(w->tmpdir);
        if (w) {
            free(w->tmpdir);
            free(w->out);
        }
        free(w);
        return NULL;
    }
    return w;
}

static void dumps_end(dump_watch *w)
{
    if (!w)
        return;
    remove(w->comp);
    remove(w->out);
    rmdir(w->tmpdir);
    free(w->comp);
    free(w->out);
    free(w->tmpdir);
    free(w->sig);
    free(w);
}

static int over(const follow *f)
{
    return !f->dir && vis_follow_file_over(f->live);
}

/* Reads the keys waiting on stdin: 1 when one asks to quit. */
static int read_keys(void)
{
    char k[64];
    ssize_t n = read(STDIN_FILENO, k, sizeof k);
    for (ssize_t i = 0; i < n; i++)
        if (k[i] == 'q' || k[i] == 'Q')
            return 1;
    return 0;
}

static int loop(follow *f)
{
    time_t drawn_at = 0;
    int first = 1;
    for (;;) {
        int changed = poll_files(f) || first;
        first = 0;
        if (f->tty && got_stop && suspend(f) != 0)
            return -1;
        if (f->tty) {
            int resized = got_winch;
            if (resized) {
                got_winch = 0;
                term_size(f);
                if (put(f, "\033[2J", 4) != 0)
                    return -1;
            }
            time_t now = time(NULL);
            if ((changed || resized || now != drawn_at) && draw(f, f->keys, resized) != 0)
                return -1;
            drawn_at = now;
        } else if (changed && plain(f) != 0) {
            return -1;
        }
        /* Without a keyboard nothing else would end it. */
        if (over(f) && (!f->tty || !f->keys))
            return 0;
        struct pollfd pf[2] = { { wake_pipe[0], POLLIN, 0 }, { STDIN_FILENO, POLLIN, 0 } };
        int n = poll(pf, f->keys ? 2 : 1, POLL_MS);
        if (got_quit)
            return 0;
        if (n > 0 && (pf[0].revents & POLLIN)) {
            char junk[64];
            while (read(wake_pipe[0], junk, sizeof junk) > 0) {
            }
        }
        if (n > 0 && f->keys && (pf[1].revents & (POLLIN | POLLHUP))) {
            if (read_keys())
                return 0;
            if (pf[1].revents & POLLHUP)
                f->keys = 0;
        }
    }
}

/* The keyboard's mode for the view: keys one at a time, not echoed. */
static void term_raw(follow *f)
{
    if (f->keys && tcgetattr(STDIN_FILENO, &f->saved) == 0) {
        struct termios t = f->saved;
        t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
        t.c_cc[VMIN] = 0;
        t.c_cc[VTIME] = 0;
        f->termios_saved = tcsetattr(STDIN_FILENO, TCSANOW, &t) == 0;
    }
}

static void term_cooked(follow *f)
{
    if (f->termios_saved)
        tcsetattr(STDIN_FILENO, TCSANOW, &f->saved);
    f->termios_saved = 0;
}

static void term_start(follow *f)
{
    term_raw(f);
    term_size(f);
    /* Cursor hidden, screen cleared. */
    if (put(f, "\033[?25l\033[H\033[2J", 13) != 0) {
        /* reported by the first frame's write */
    }
}

/* Ctrl-Z: the terminal as it was, stopped for real; on fg, the view again. */
static int suspend(follow *f)
{
    got_stop = 0;
    term_cooked(f);
    if (put(f, "\033[?25h", 6) != 0)
        return -1;
    struct sigaction dfl, mine;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGTSTP, &dfl, &mine);
    raise(SIGTSTP);
    sigaction(SIGTSTP, &mine, NULL);
    term_start(f);
    free(f->last);
    f->last = NULL;
    return 0;
}

/* The final frame without the footer, the cursor below it, the terminal
 * as it was. */
static int term_end(follow *f, int ok)
{
    int rc = ok ? draw(f, 0, 1) : 0;
    const char *tail = "\r\n\033[?25h";
    if (put(f, tail, strlen(tail)) != 0)
        rc = -1;
    term_cooked(f);
    return rc;
}

int vis_follow_run(const vis_follow_opts *o, char *err, size_t errsz)
{
    follow f;
    memset(&f, 0, sizeof f);
    f.o = o;
    f.err = err;
    f.errsz = errsz;
    struct stat st;
    int dir = stat(o->path, &st) == 0 && S_ISDIR(st.st_mode);
    if (dir && o->dumps && is_dump_dir(o->path)) {
        if (!(f.dumps = dumps_start())) {
            snprintf(err, errsz, "cannot make a temporary directory: %s", strerror(errno));
            return VIS_EXIT_DATA;
        }
        dumps_poll(&f);
        f.live = vis_follow_file_new(f.dumps->out, NULL, 0);
        if (f.live && o->group)
            vis_follow_file_set_grouping(f.live, o->group);
    } else if (dir) {
        if (o->companion) {
            snprintf(err, errsz, "--companion names one profile's companion; %s is a directory",
                     o->path);
            return VIS_EXIT_USAGE;
        }
        f.dir = vis_follow_dir_new(o->path);
    } else {
        f.live = vis_follow_file_new(o->path, o->companion, o->no_companion);
        if (f.live && o->group)
            vis_follow_file_set_grouping(f.live, o->group);
    }
    if (!f.dir && !f.live) {
        snprintf(err, errsz, "out of memory");
        return VIS_EXIT_DATA;
    }
    f.tty = isatty(STDOUT_FILENO);
    f.keys = f.tty && isatty(STDIN_FILENO);
    setlocale(LC_CTYPE, "");
    f.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");

    int rc = -1;
    if (pipe(wake_pipe) != 0) {
        snprintf(err, errsz, "pipe: %s", strerror(errno));
    } else {
        fcntl(wake_pipe[0], F_SETFL, O_NONBLOCK);
        fcntl(wake_pipe[1], F_SETFL, O_NONBLOCK);
        struct sigaction sa, old[5];
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        /* SIGTSTP only with a terminal to give back before stopping. */
        const int sigs[5] = { SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGTSTP };
        int nsigs = f.tty ? 5 : 4;
        for (int i = 0; i < nsigs; i++)
            sigaction(sigs[i], &sa, &old[i]);
        if (f.tty)
            term_start(&f);
        rc = loop(&f);
        if (f.tty && term_end(&f, rc == 0) != 0)
            rc = -1;
        for (int i = 0; i < nsigs; i++)
            sigaction(sigs[i], &old[i], NULL);
        close(wake_pipe[0]);
        close(wake_pipe[1]);
        wake_pipe[0] = wake_pipe[1] = -1;
    }
    free(f.last);
    vis_follow_file_free(f.live);
    vis_follow_dir_free(f.dir);
    dumps_end(f.dumps);
    return rc == 0 ? VIS_EXIT_OK : VIS_EXIT_DATA;
}
