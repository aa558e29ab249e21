/* LoopHunterCLISupport — the C helpers of the `loophunter` command. */
#include "signal_relay.h"
#include "lh_inject.h"
