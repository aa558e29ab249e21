/* rel_ctor.c — dlopen'ed in a loop by `lh_rel dlopen-storm` (row 5): its constructor and
 * destructor allocate, while other threads capture stacks (dl_iterate_phdr). */
#include <stdlib.h>
static void *block;
__attribute__((constructor)) static void rel_ctor_init(void) { block = malloc(4096); }
__attribute__((destructor)) static void rel_ctor_fini(void) { free(block); }
int rel_ctor_marker(void) { return block != NULL; }
