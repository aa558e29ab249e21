/* tk_hello.c — tk-hello: a Tk program (a toolkit LoopHunter does not support) for the summary's
 * toolkit naming (SummaryStateTests): a label and a button in a window, closed after 500 ms.
 * Prints "tk-hello: done" and exits 0. Build: scripts/build-gtk-programs.sh (needs tk-dev). */
#include <stdio.h>
#include <tcl.h>
#include <tk.h>

int main(int argc, char **argv) {
    (void)argc;
    Tcl_FindExecutable(argv[0]);
    Tcl_Interp *interp = Tcl_CreateInterp();
    if (Tcl_Init(interp) != TCL_OK || Tk_Init(interp) != TCL_OK) {
        fprintf(stderr, "tk-hello: %s\n", Tcl_GetStringResult(interp));
        return 1;
    }
    const char *script = "label .l -text {LoopHunter}; button .b -text {Close} -command {destroy .};"
                         "pack .l .b; after 500 {destroy .}";
    if (Tcl_Eval(interp, script) != TCL_OK) {
        fprintf(stderr, "tk-hello: %s\n", Tcl_GetStringResult(interp));
        return 1;
    }
    Tk_MainLoop();
    printf("tk-hello: done\n");
    Tcl_DeleteInterp(interp);
    return 0;
}
