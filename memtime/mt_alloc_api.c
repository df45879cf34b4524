/* mt_alloc_api.c: the allocator client-request API (placeholder body until
   the allocator-API module lands: it handles no request yet). */
#include "pub_tool_basics.h"
#include "pub_tool_clreq.h"     /* VG_USERREQ_TOOL_BASE, used by the header */
#include "mt_alloc_api.h"

void mt_alloc_api_init(void)
{
}

Bool mt_alloc_api_handle_client_request(ThreadId tid, UWord* arg, UWord* ret)
{
   return False;
}
