/* rel_module.c — a module that breaches and is then dlclosed (row 18): its report must carry the
 * module's path, build-id and offset from capture time. */
void tk_view_layout(void *view);
__attribute__((noinline)) void rel_module_storm(void *view) {
    for (int i = 0; i < 101; i++) tk_view_layout(view);
    __asm__ volatile("" ::: "memory"); /* no tail call: this frame stays on the stack */
}
