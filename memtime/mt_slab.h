/* mt_slab.h: the client's small blocks, in slabs of one size each, with
   their records beside them (a slot's record is 8 bytes: no table). */
#ifndef MT_SLAB_H
#define MT_SLAB_H

#include "pub_tool_basics.h"
#include "mt_blocks.h"

/* The largest request a slab serves. */
#define MT_SLAB_MAX_REQ 1024

void  mt_slab_init(void);
/* The client arena's usable size for a plain malloc of req_szB (what
   Valgrind's VG_(cli_malloc_usable_size) says when the arena splits a
   free block to fit): the request rounded up to 16 bytes. */
SizeT mt_slab_usable(SizeT req_szB);
/* A block of mt_slab_usable(req_szB) usable bytes, or NULL (no memory).
   req_szB <= MT_SLAB_MAX_REQ. Its record is blank until mt_slab_set. */
void* mt_slab_alloc(SizeT req_szB);
/* True if a lies in a slab (allocated there or not). */
Bool  mt_slab_contains(Addr a);
/* The record of the live slab block at a; False if a is none or has no
   record (a blank one, or one mt_slab_unset). */
Bool  mt_slab_get(Addr a, MtBlockRec* r);
/* Forgets the record of the live slab block at a, the block stays
   allocated (a custom allocator's FREELIKE on a malloc'd block). */
void  mt_slab_unset(Addr a);
/* Sets the record of the live slab block r->addr: r->req_szB at most its
   usable size (the slop is what is left), r->tid below 65536. */
void  mt_slab_set(const MtBlockRec* r);
/* Whether a thread id fits a slot's record. */
Bool  mt_slab_tid_fits(ThreadId tid);
/* Frees the live slab block at a; False (nothing done) if a is none. */
Bool  mt_slab_free(Addr a);

/* For -v: live blocks, client bytes in slabs, bytes of records and slab
   descriptors (the tool's own memory), slabs. */
void  mt_slab_stats(ULong* n_live, ULong* client_bytes, ULong* own_bytes,
                    ULong* n_slabs);

#endif /* MT_SLAB_H */
