/* symbols.c: addresses to frames through libdwfl (symbols.h).
 *
 * One Dwfl session per object, the object reported at its own link-time
 * addresses (base 0), so a process address is first turned into a file
 * offset through the map (pc - start + offset), then into the object's
 * address through the loadable segment holding that offset: this is the
 * same for a shared library, a PIE and a fixed executable, and does not
 * depend on where the process placed it. Names come from the symbol table
 * (dwfl_module_addrinfo, demangled as memtime-vis demangles the trees),
 * file:line from the line table (dwfl_module_getsrc), inlined frames from
 * the DWARF scopes at the address (dwarf_getscopes): each inlined
 * subroutine is a frame, the line of the one outside it is the inner one's
 * DW_AT_call_file/DW_AT_call_line.
 *
 * Before an object names anything, each executable mapping of it in the
 * dump must match one of its executable PT_LOAD segments (same page-
 * aligned file offset, same size): a rebuilt or other version of the
 * object of another size never does. A rebuild of the same size is caught
 * by the addresses themselves: every return address of a stack follows a
 * call instruction in the object the process ran (x86-64 and AArch64 are
 * decoded), and an object where a fifth of them or more do not is another
 * build (vis_sym_verify). With a recorded build ID (pprof mappings) the
 * IDs must be equal. The run stops with an error rather than print names
 * of another build. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/grow.h"
#include "base/strfmt.h"
#include "model/demangle.h"
#include "read/symbols.h"

typedef struct {
    uint64_t offset, vaddr, filesz, memsz;
    int exec;
} seg;

typedef struct {
    uint64_t offset, size;    /* a mapping already checked against the segments */
} checked;

typedef enum { OBJ_NEW, OBJ_OK, OBJ_MISSING, OBJ_NOSYMS } obj_state;

typedef struct {
    char *name;               /* the path as mapped */
    char *file;               /* the file opened, or NULL */
    obj_state state;
    Dwfl *dwfl;
    Dwfl_Module *mod;
    GElf_Addr bias;
    seg *segs;
    size_t n_segs;
    checked *ok;
    size_t n_ok;
    int build_id_checked;
    const unsigned char *raw;  /* the file's bytes (libelf's), for the calls */
    size_t raw_size;
    int machine;              /* e_machine */
    size_t n_calls, n_not_calls;   /* return addresses checked, and failing */
    uint64_t first_bad;       /* the first return address that failed */
    char *first_bad_file;     /* the dump it was in */
} object;

typedef struct {
    uint64_t pc;              /* key: pc << 1 | is_return; 0: empty */
    size_t obj;               /* SIZE_MAX: no object */
    size_t n;
    char **frames;
} entry;

struct vis_symbolizer {
    vis_sym_opts o;
    object *objs;
    size_t n_objs;
    entry *tab;               /* open addressing, grown at half full */
    size_t cap, n;
};

static char *debuginfo_path;
static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
    .debuginfo_path = &debuginfo_path,
};

vis_symbolizer *vis_sym_new(const vis_sym_opts *o)
{
    vis_symbolizer *s = calloc(1, sizeof *s);
    if (s && o)
        s->o = *o;
    return s;
}

void vis_sym_free(vis_symbolizer *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_objs; i++) {
        object *b = &s->objs[i];
        if (b->dwfl)
            dwfl_end(b->dwfl);
        free(b->name);
        free(b->file);
        free(b->segs);
        free(b->ok);
        free(b->first_bad_file);
    }
    for (size_t i = 0; i < s->cap; i++) {
        for (size_t k = 0; k < s->tab[i].n; k++)
            free(s->tab[i].frames[k]);
        free(s->tab[i].frames);
    }
    free(s->objs);
    free(s->tab);
    free(s);
}

static const char *base_name(const char *p)
{
    const char *b = strrchr(p, '/');
    return b ? b + 1 : p;
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Where the object mapped as name is now: --binary for the program (the
 * object of the same base name, else the first file the map holds), the
 * path itself, else each --search-path directory with the whole path
 * under it (a sysroot, a container's root) or the base name in it. */
static char *locate(const vis_symbolizer *s, const char *name, int is_first)
{
    if (s->o.binary && (is_first || !strcmp(base_name(s->o.binary), base_name(name))))
        return strdup(s->o.binary);
    if (is_file(name))
        return strdup(name);
    const char *dirs = s->o.search_path;
    while (dirs && *dirs) {
        size_t len = strcspn(dirs, ":");
        char buf[4096];
        for (int pass = 0; pass < 2 && len; pass++) {
            int n = snprintf(buf, sizeof buf, "%.*s/%s", (int)len, dirs,
                             pass == 0 ? name + (name[0] == '/') : base_name(name));
            if (n > 0 && (size_t)n < sizeof buf && is_file(buf))
                return strdup(buf);
        }
        dirs += len + (dirs[len] == ':');
    }
    return NULL;
}

/* Opens b's file through libdwfl and reads its loadable segments. */
static int open_object(object *b)
{
    if (!(b->dwfl = dwfl_begin(&callbacks)))
        return -1;
    dwfl_report_begin(b->dwfl);
    b->mod = dwfl_report_elf(b->dwfl, b->name, b->file, -1, 0, true);
    dwfl_report_end(b->dwfl, NULL, NULL);
    Elf *elf = b->mod ? dwfl_module_getelf(b->mod, &b->bias) : NULL;
    size_t nph;
    if (!elf || elf_getphdrnum(elf, &nph) != 0)
        return -1;
    GElf_Ehdr eh;
    if (gelf_getehdr(elf, &eh))
        b->machine = eh.e_machine;
    b->raw = (const unsigned char *)elf_rawfile(elf, &b->raw_size);
    for (size_t i = 0; i < nph; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
            continue;
        seg *a = vis_grow(b->segs, b->n_segs, 8, sizeof *a);
        if (!a)
            return -1;
        b->segs = a;
        a[b->n_segs++] = (seg){ ph.p_offset, ph.p_vaddr, ph.p_filesz, ph.p_memsz,
                                (ph.p_flags & PF_X) != 0 };
    }
    return b->n_segs ? 0 : -1;
}

/* The object mapped as name (path_len bytes), found or added. */
static object *get_object(vis_symbolizer *s, const char *name, size_t len, int is_first,
                          size_t *idx)
{
    for (size_t i = 0; i < s->n_objs; i++)
        if (strlen(s->objs[i].name) == len && !strncmp(s->objs[i].name, name, len)) {
            *idx = i;
            return &s->objs[i];
        }
    object *a = vis_grow(s->objs, s->n_objs, 16, sizeof *a);
    if (!a)
        return NULL;
    s->objs = a;
    object *b = &a[s->n_objs];
    memset(b, 0, sizeof *b);
    if (!(b->name = strndup(name, len)))
        return NULL;
    *idx = s->n_objs++;
    /* A file replaced while mapped reads "PATH (deleted)". */
    char *plain = strdup(b->name);
    if (!plain)
        return NULL;
    size_t pl = strlen(plain);
    if (pl > 10 && !strcmp(plain + pl - 10, " (deleted)"))
        plain[pl - 10] = '\0';
    b->file = locate(s, plain, is_first);
    free(plain);
    if (!b->file)
        b->state = OBJ_MISSING;
    else
        b->state = open_object(b) == 0 ? OBJ_OK : OBJ_NOSYMS;
    return b;
}

static size_t page_floor(uint64_t v, uint64_t pg) { return (size_t)(v & ~(pg - 1)); }

/* The segment an executable mapping m of b holds; NULL when none fits. */
static const seg *fit(const object *b, const vis_mapping *m)
{
    static const uint64_t pages[] = { 4096, 16384, 65536 };
    for (size_t i = 0; i < b->n_segs; i++) {
        const seg *g = &b->segs[i];
        if (!g->exec)
            continue;
        for (size_t k = 0; k < sizeof pages / sizeof *pages; k++) {
            uint64_t pg = pages[k];
            uint64_t lo = page_floor(g->vaddr, pg);
            uint64_t hi = (g->vaddr + g->memsz + pg - 1) & ~(pg - 1);
            if (page_floor(g->offset, pg) == m->offset && hi - lo == m->end - m->start)
                return g;
        }
    }
    return NULL;
}

static int check_build_id(object *b, const unsigned char *id, size_t n, const char *file,
                          char *err, size_t errsz)
{
    const unsigned char *bits;
    GElf_Addr vaddr;
    int len = dwfl_module_build_id(b->mod, &bits, &vaddr);
    if (len <= 0 || (size_t)len != n || memcmp(bits, id, n) != 0) {
        char want[130] = "", got[130] = "none";
        for (size_t i = 0; i < n && i < 64; i++)
            snprintf(want + 2 * i, 3, "%02x", id[i]);
        for (int i = 0; i < len && i < 64; i++)
            snprintf(got + 2 * i, 3, "%02x", bits[i]);
        snprintf(err, errsz, "%s: %s has build ID %s, but the profiled process mapped build ID "
                 "%s there: another build (give the right file with --binary or "
                 "--search-path)", file, b->file, got, want);
        return -1;
    }
    b->build_id_checked = 1;
    return 0;
}

/* Whether an x86-64 call instruction ends just before p (k bytes back at
 * most: there are bytes from p - avail to p): "e8 rel32", or "ff /2" with
 * any ModRM addressing (call through a register or memory), prefixes
 * aside. */
static int x86_call_before(const unsigned char *p, size_t avail)
{
    if (avail >= 5 && p[-5] == 0xe8)
        return 1;
    for (size_t k = 2; k <= 7 && k <= avail; k++) {
        const unsigned char *q = p - k;
        if (q[0] != 0xff || ((q[1] >> 3) & 7) != 2)
            continue;
        unsigned mod = q[1] >> 6, rm = q[1] & 7;
        size_t len = 2;
        if (mod != 3 && rm == 4) {
            if (k < 3)
                continue;
            len++;
            if (mod == 0 && (q[2] & 7) == 5)
                len += 4;
        }
        if (mod == 0 && rm == 5)
            len += 4;
        else if (mod == 1)
            len += 1;
        else if (mod == 2)
            len += 4;
        if (len == k)
            return 1;
    }
    return 0;
}

/* Whether the instruction before p is an AArch64 BL, BLR or BLRA*. */
static int a64_call_before(const unsigned char *p, size_t avail)
{
    if (avail < 4)
        return 0;
    uint32_t w = (uint32_t)p[-4] | (uint32_t)p[-3] << 8 | (uint32_t)p[-2] << 16 |
                 (uint32_t)p[-1] << 24;
    return (w & 0xfc000000u) == 0x94000000u || (w & 0xfffffc1fu) == 0xd63f0000u ||
           (w & 0xfefff800u) == 0xd63f0800u;
}

/* Counts whether the return address at file offset foff of b follows a
 * call (other machines are not checked). */
static void check_call(object *b, uint64_t foff, uint64_t pc, const char *file)
{
    if (!b->raw || foff > b->raw_size || foff == 0)
        return;
    int is_call;
    if (b->machine == EM_X86_64)
        is_call = x86_call_before(b->raw + foff, (size_t)foff);
    else if (b->machine == EM_AARCH64)
        is_call = a64_call_before(b->raw + foff, (size_t)foff);
    else
        return;
    b->n_calls++;
    if (!is_call && b->n_not_calls++ == 0) {
        b->first_bad = pc;
        b->first_bad_file = strdup(file);
    }
}

int vis_sym_verify(const vis_symbolizer *s, char *err, size_t errsz)
{
    for (size_t i = 0; i < s->n_objs; i++) {
        const object *b = &s->objs[i];
        if (b->n_not_calls && b->n_not_calls * 5 >= b->n_calls) {
            snprintf(err, errsz, "%s: %s is not the object the profiled process mapped: %zu of "
                     "the %zu return addresses in it (the first %#" PRIx64 ") follow no call "
                     "instruction there (another build? give the right file with --binary or "
                     "--search-path)", b->first_bad_file ? b->first_bad_file : "?", b->file, b->n_not_calls, b->n_calls,
                     b->first_bad);
            return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------ frames */

static char *die_name(Dwarf_Die *die)
{
    Dwarf_Attribute at;
    const char *link = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &at));
    if (!link)
        link = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &at));
    const char *n = link ? link : dwarf_diename(die);
    return n ? strdup(n) : NULL;
}

char *vis_sym_label(uint64_t pc, const char *fn, const char *src, int line, const char *obj)
{
    char *l;
    if (fn && src && line > 0)
        l = vis_strfmt("0x%" PRIX64 ": %s (%s:%d)", pc, fn, base_name(src), line);
    else if (obj && *obj)
        l = vis_strfmt("0x%" PRIX64 ": %s (in %s)", pc, fn ? fn : "???", obj);
    else
        l = vis_strfmt("0x%" PRIX64 ": %s", pc, fn ? fn : "???");
    if (!l)
        return NULL;
    /* Names come from the objects: a control character would break the
     * profile's lines. */
    for (char *c = l; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    char *d;
    int rc = vis_demangle_label(l, &d);
    if (rc == 1) {
        free(l);
        return d;
    }
    return rc == 0 ? l : (free(l), NULL);
}

/* Pushes a frame onto e; -1 when out of memory. */
static int push(entry *e, char *f)
{
    if (!f)
        return -1;
    char **a = vis_grow(e->frames, e->n, 4, sizeof *a);
    if (!a) {
        free(f);
        return -1;
    }
    e->frames = a;
    a[e->n++] = f;
    return 0;
}

/* The frames at a (the module's address) of object b, for the label pc. */
static int frames_at(object *b, uint64_t pc, GElf_Addr a, entry *e)
{
    GElf_Off off;
    GElf_Sym sym;
    const char *sname = dwfl_module_addrinfo(b->mod, a, &off, &sym, NULL, NULL, NULL);
    /* "__libc_start_main@@GLIBC_2.34": the version is not the name. */
    char plain[1024];
    const char *at = sname ? strchr(sname, '@') : NULL;
    if (at && at > sname && (size_t)(at - sname) < sizeof plain) {
        memcpy(plain, sname, (size_t)(at - sname));
        plain[at - sname] = '\0';
        sname = plain;
    }
    Dwfl_Line *ln = dwfl_module_getsrc(b->mod, a);
    int lineno = 0;
    const char *src = ln ? dwfl_lineinfo(ln, NULL, &lineno, NULL, NULL, NULL) : NULL;
    Dwarf_Addr dbias;
    Dwarf_Die *cu = dwfl_module_addrdie(b->mod, a, &dbias);
    Dwarf_Die *scopes = NULL;
    int ns = cu ? dwarf_getscopes(cu, a - dbias, &scopes) : 0;
    Dwarf_Files *files = NULL;
    size_t nfiles = 0;
    if (cu && dwarf_getsrcfiles(cu, &files, &nfiles) != 0)
        files = NULL;
    int rc = 0;
    /* Each inlined subroutine around a is a frame, innermost first; the
     * function they were inlined into is the last. */
    for (int i = 0; i < ns && rc == 0; i++) {
        int tag = dwarf_tag(&scopes[i]);
        if (tag != DW_TAG_inlined_subroutine)
            continue;
        char *fn = die_name(&scopes[i]);
        rc = push(e, vis_sym_label(pc, fn, src, lineno, b->name));
        free(fn);
        /* The next frame's line is where this one was inlined. */
        Dwarf_Attribute at;
        Dwarf_Word cf = 0, cl = 0;
        src = NULL;
        lineno = 0;
        if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &at), &cf) == 0 && files &&
            cf < nfiles)
            src = dwarf_filesrc(files, cf, NULL, NULL);
        if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &at), &cl) == 0)
            lineno = (int)cl;
    }
    free(scopes);
    if (rc == 0)
        rc = push(e, vis_sym_label(pc, sname, src, lineno, b->name));
    return rc;
}

/* ------------------------------------------------------------ the cache */

static uint64_t hash64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

static entry *slot(vis_symbolizer *s, uint64_t key)
{
    if (2 * (s->n + 1) > s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 1024;
        entry *t = calloc(cap, sizeof *t);
        if (!t)
            return NULL;
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->tab[i].pc)
                continue;
            size_t j = hash64(s->tab[i].pc) & (cap - 1);
            while (t[j].pc)
                j = (j + 1) & (cap - 1);
            t[j] = s->tab[i];
        }
        free(s->tab);
        s->tab = t;
        s->cap = cap;
    }
    size_t j = hash64(key) & (s->cap - 1);
    while (s->tab[j].pc && s->tab[j].pc != key)
        j = (j + 1) & (s->cap - 1);
    return &s->tab[j];
}

const char *vis_sym_object(const vis_maps *maps, uint64_t pc)
{
    const vis_mapping *m = vis_maps_find(maps, pc);
    return m ? m->path : "";
}

static int nomem(char *err, size_t errsz)
{
    snprintf(err, errsz, "out of memory");
    return -1;
}

int vis_sym_resolve(vis_symbolizer *s, const vis_maps *maps, const char *file, uint64_t pc,
                    int is_return, const unsigned char *build_id, size_t n_build_id,
                    const char *const **frames, char *err, size_t errsz)
{
    const vis_mapping *m = vis_maps_find(maps, pc);
    /* The key holds pc and is_return; 0 marks an empty slot, so the key is
     * never 0 (pc 0 as a leaf gets key 2). */
    uint64_t key = (pc << 1 | (uint64_t)(is_return != 0)) + 2;
    entry *e = slot(s, key);
    if (!e)
        return nomem(err, errsz);
    size_t idx = SIZE_MAX;
    object *b = NULL;
    if (m && m->path_len && m->path[0] != '[') {
        /* The program is the first file the map holds. */
        int first = 0;
        for (size_t i = 0; i < maps->n; i++)
            if (maps->m[i].path_len && maps->m[i].path[0] == '/') {
                first = maps->m[i].path_len == m->path_len &&
                        !strncmp(maps->m[i].path, m->path, m->path_len);
                break;
            }
        if (!(b = get_object(s, m->path, m->path_len, first, &idx)))
            return nomem(err, errsz);
    }
    if (e->pc == key && e->obj == idx) {
        *frames = (const char *const *)e->frames;
        return (int)e->n;
    }
    if (e->pc == key) {   /* the same address in another object: resolve again */
        for (size_t k = 0; k < e->n; k++)
            free(e->frames[k]);
        e->n = 0;
    } else {
        memset(e, 0, sizeof *e);
        e->pc = key;
        s->n++;
    }
    e->obj = idx;
    int rc = 0;
    if (!b) {
        /* No file behind the address: anonymous memory (JIT code), the
         * vdso, or an address outside every mapping. */
        char obj[64] = "";
        if (m && m->path_len)
            snprintf(obj, sizeof obj, "%.*s", (int)(m->path_len < 60 ? m->path_len : 60), m->path);
        rc = push(e, vis_sym_label(pc, NULL, NULL, 0, obj));
    } else if (b->state != OBJ_OK || !m->exec) {
        rc = push(e, vis_sym_label(pc, NULL, NULL, 0, b->name));
    } else {
        if (n_build_id && !b->build_id_checked &&
            check_build_id(b, build_id, n_build_id, file, err, errsz) != 0)
            return -1;
        const seg *g = NULL;
        for (size_t i = 0; i < b->n_ok && !g; i++)
            if (b->ok[i].offset == m->offset && b->ok[i].size == m->end - m->start)
                g = fit(b, m);
        /* A mapping over the whole address space (jemalloc_pprof's: its
         * addresses are file offsets) says nothing of the layout: the
         * segment is the one holding the offset. */
        int synthetic = m->end - m->start > ((uint64_t)1 << 48);
        uint64_t so = pc - m->start + m->offset;
        for (size_t i = 0; synthetic && !g && i < b->n_segs; i++)
            if (b->segs[i].exec && so >= b->segs[i].offset &&
                so - b->segs[i].offset < b->segs[i].filesz)
                g = &b->segs[i];
        if (synthetic && !g) {
            rc = push(e, vis_sym_label(pc, NULL, NULL, 0, b->name));
            if (rc != 0)
                return nomem(err, errsz);
            *frames = (const char *const *)e->frames;
            return (int)e->n;
        }
        if (!g) {
            if (!(g = fit(b, m))) {
                snprintf(err, errsz, "%s: %s is not the object the profiled process mapped: its "
                         "mapping %" PRIx64 "-%" PRIx64 " at file offset %#" PRIx64 " fits none of "
                         "the file's executable segments (another build? give the right file with "
                         "--binary or --search-path)", file, b->file, m->start, m->end, m->offset);
                return -1;
            }
            checked *ok = vis_grow(b->ok, b->n_ok, 4, sizeof *ok);
            if (!ok)
                return nomem(err, errsz);
            b->ok = ok;
            ok[b->n_ok++] = (checked){ m->offset, m->end - m->start };
        }
        uint64_t foff = pc - m->start + m->offset;
        if (is_return)
            check_call(b, foff, pc, file);
        GElf_Addr a = foff - g->offset + g->vaddr + b->bias - (is_return ? 1 : 0);
        rc = frames_at(b, pc, a, e);
    }
    if (rc != 0)
        return nomem(err, errsz);
    *frames = (const char *const *)e->frames;
    return (int)e->n;
}

const char *vis_sym_why(const vis_symbolizer *s, const char *name)
{
    for (size_t k = 0; k < s->n_objs; k++)
        if (!strcmp(s->objs[k].name, name))
            return s->objs[k].state == OBJ_MISSING ? "not found"
                 : s->objs[k].state == OBJ_NOSYMS ? "not readable as ELF" : "no symbol there";
    return "no object mapped there";
}
