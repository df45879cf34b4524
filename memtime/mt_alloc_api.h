/* mt_alloc_api.h: the client-request API custom allocators (jemalloc's
   preload wrappers) use to report their blocks to memtime. Owned by the
   allocator-API module; the core calls these two hooks. */
#ifndef MT_ALLOC_API_H
#define MT_ALLOC_API_H

#include "pub_tool_basics.h"

/* Called once from post_clo_init. */
void mt_alloc_api_init(void);
/* Called first from the tool's client-request handler. Returns True (and sets
   *ret) when arg[0] is one of the allocator API's requests
   (VG_USERREQ_TOOL_BASE('M','T') + 0x100 and up). */
Bool mt_alloc_api_handle_client_request(ThreadId tid, UWord* arg, UWord* ret);

#endif /* MT_ALLOC_API_H */
