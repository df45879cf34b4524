/* memtime's own preload additions (placeholder). */
#include "pub_tool_basics.h"
#include "pub_tool_redir.h"
#include "valgrind.h"
void mt_preload_placeholder(void);
void mt_preload_placeholder(void) { }
