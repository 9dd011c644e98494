// The lab's tab views, one entry each from LOCKSTEP_TAB_VIEWS.
#include "lockstep_views/view_catalog.h"

namespace lockstep::views {

#define LOCKSTEP_DECLARE_VIEW(name, title) SessionView* make_##name##_view();
LOCKSTEP_TAB_VIEWS(LOCKSTEP_DECLARE_VIEW)
#undef LOCKSTEP_DECLARE_VIEW

std::span<const ViewEntry> tab_views() {
#define LOCKSTEP_VIEW_ENTRY(name, title) ViewEntry{#name, title, &make_##name##_view},
    static const ViewEntry entries[] = {LOCKSTEP_TAB_VIEWS(LOCKSTEP_VIEW_ENTRY)};
#undef LOCKSTEP_VIEW_ENTRY
    return entries;
}

} // namespace lockstep::views
