/* symbols.h: names the code addresses of a heap profile taken outside
 * Valgrind (a jemalloc dump, an unsymbolized pprof profile) through the
 * objects the process had mapped, with elfutils' libdwfl: the function,
 * file:line and the inlined frames at each address, as Massif's trees
 * write frames ("0x<HEX>: fn (file.c:12)", inlined calls as more frames at
 * the same address). Each object is opened once per run and each address
 * resolved once. An object that cannot be found is a stated gap (its
 * frames read "0x<HEX>: ??? (in /path/obj)"); an object that is not the
 * one the process mapped (its segments do not fit the map, or its build ID
 * differs) is an error, never wrong names. */
#ifndef VIS_SYMBOLS_H
#define VIS_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>
#include "read/maps.h"

typedef struct {
    const char *binary;       /* --binary: the program's file, wherever it is now */
    const char *search_path;  /* --search-path: DIR[:DIR...] for moved objects */
} vis_sym_opts;

typedef struct vis_symbolizer vis_symbolizer;

vis_symbolizer *vis_sym_new(const vis_sym_opts *o);
void vis_sym_free(vis_symbolizer *s);

/* The frames at pc in a process mapped as maps (from file, for messages),
 * innermost first, as Massif labels; valid until vis_sym_free. is_return:
 * pc is a return address (every frame but a stack's first), looked up one
 * byte before, as jeprof and Valgrind do. build_id (n_build_id bytes, or
 * NULL) is the object's GNU build ID when the profile recorded it. Returns
 * the number of frames (at least 1), or -1 with err when the object found
 * is not the one the process mapped. */
int vis_sym_resolve(vis_symbolizer *s, const vis_maps *maps, const char *file, uint64_t pc,
                    int is_return, const unsigned char *build_id, size_t n_build_id,
                    const char *const **frames, char *err, size_t errsz);

/* A frame's label as Massif writes it: "0x<pc>: fn (file:line)" (the
 * file's base name), "0x<pc>: fn (in obj)" without a line, "0x<pc>: ???
 * (in obj)" without a name, fn demangled when it is a mangled name and
 * control characters made '?'. NULL when out of memory. */
char *vis_sym_label(uint64_t pc, const char *fn, const char *src, int line, const char *obj);

/* After the addresses are resolved: -1 with err when, in an object, a
 * fifth or more of the return addresses follow no call instruction: the
 * file is another build than the process ran (its names would be wrong). */
int vis_sym_verify(const vis_symbolizer *s, char *err, size_t errsz);

/* Why the frames of the object mapped as name read "???": "not found",
 * "not readable as ELF", or "no symbol there" (found, but the address is
 * in no symbol of it: a stripped object without its debug file). */
const char *vis_sym_why(const vis_symbolizer *s, const char *name);

/* The object the frames of pc belong to, by name (for stripping an
 * allocator's own frames): its path as mapped, or "" if none. */
const char *vis_sym_object(const vis_maps *maps, uint64_t pc);

#endif
