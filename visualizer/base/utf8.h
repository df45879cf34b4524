/* utf8.h: the one place memtime-vis reads UTF-8. Labels in a profile are
 * bytes as the program's debug info gave them, so every writer whose format
 * demands valid text (JSON, the flamegraph's XML, pprof's proto3 strings)
 * asks here where a valid sequence ends, and the font decodes code points
 * here to draw them. */
#ifndef VIS_UTF8_H
#define VIS_UTF8_H

#include <stddef.h>

/* Length (1..4) of the valid UTF-8 sequence at s, of which n bytes are
 * readable, or 0 when it is not one: a stray continuation byte, a sequence
 * cut short, an overlong form, a surrogate, or a code point above U+10FFFF. */
size_t vis_utf8_len(const unsigned char *s, size_t n);

/* Decodes one code point at *s (NUL-terminated) and advances *s past it.
 * Lenient, for drawing: a lead byte that starts no sequence is one U+FFFD,
 * and a sequence broken by a byte that does not continue it is U+FFFD up to
 * that byte; overlong forms decode to their value. */
unsigned long vis_utf8_next(const char **s);

#endif
