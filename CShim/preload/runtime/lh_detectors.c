/*
 * lh_detectors.c — the detector table (lh_detectors.def) as data, and their start-up. Runs at
 * start-up only (init maps memory); the events are sent with LH_EACH_DETECTOR where they happen.
 */
#include <string.h>

#include "lh_detectors.h"

lh_detector_events lh_events; /* written once at start-up, before LoopHunter is ready */

const lh_detector_row lh_detector_rows[LH_DETECTOR_COUNT] = {
#define LH_DETECTOR(name, family) [LH_DETECTOR_##name] = {&lh_detector_##name, family},
#include "lh_detectors.def"
};

void lh_detectors_init(void) {
    for (size_t i = 0; i < LH_DETECTOR_COUNT; i++) {
        const lh_detector *d = lh_detector_rows[i].detector;
        if (d->init == NULL || !lh_family_on(lh_detector_rows[i].family)) continue;
        if (d->init() != 0) lh_say("loophunter: could not map the memory of the ", d->name, " detector; it is off in this process");
    }
    memset(&lh_events, 0, sizeof lh_events);
    for (size_t i = 0; i < LH_DETECTOR_COUNT; i++) {
        const lh_detector *d = lh_detector_rows[i].detector;
        if (!lh_family_on(lh_detector_rows[i].family)) continue;
#define LH_EVENT_ADD(member)                                                                        \
        if (d->member != NULL) lh_events.member[lh_events.member##_count++] = d->member;
        LH_DETECTOR_EVENTS(LH_EVENT_ADD)
#undef LH_EVENT_ADD
    }
}
