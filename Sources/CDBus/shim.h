#ifndef AXSERVER_CDBUS_SHIM_H
#define AXSERVER_CDBUS_SHIM_H
#include <dbus/dbus.h>
#include <poll.h>
#include <unistd.h>
#include <errno.h>
#include <sys/eventfd.h>

/* DBUS_TYPE_* are `((int) 's')` macros, which the Swift importer drops.
   Re-export them (and a few other function-like macros) as constants. */
static const int CDBUS_TYPE_INVALID     = DBUS_TYPE_INVALID;
static const int CDBUS_TYPE_BYTE        = DBUS_TYPE_BYTE;
static const int CDBUS_TYPE_BOOLEAN     = DBUS_TYPE_BOOLEAN;
static const int CDBUS_TYPE_INT16       = DBUS_TYPE_INT16;
static const int CDBUS_TYPE_UINT16      = DBUS_TYPE_UINT16;
static const int CDBUS_TYPE_INT32       = DBUS_TYPE_INT32;
static const int CDBUS_TYPE_UINT32      = DBUS_TYPE_UINT32;
static const int CDBUS_TYPE_INT64       = DBUS_TYPE_INT64;
static const int CDBUS_TYPE_UINT64      = DBUS_TYPE_UINT64;
static const int CDBUS_TYPE_DOUBLE      = DBUS_TYPE_DOUBLE;
static const int CDBUS_TYPE_STRING      = DBUS_TYPE_STRING;
static const int CDBUS_TYPE_OBJECT_PATH = DBUS_TYPE_OBJECT_PATH;
static const int CDBUS_TYPE_SIGNATURE   = DBUS_TYPE_SIGNATURE;
static const int CDBUS_TYPE_UNIX_FD     = DBUS_TYPE_UNIX_FD;
static const int CDBUS_TYPE_ARRAY       = DBUS_TYPE_ARRAY;
static const int CDBUS_TYPE_VARIANT     = DBUS_TYPE_VARIANT;
static const int CDBUS_TYPE_STRUCT      = DBUS_TYPE_STRUCT;
static const int CDBUS_TYPE_DICT_ENTRY  = DBUS_TYPE_DICT_ENTRY;

static const int CDBUS_MESSAGE_TYPE_INVALID       = DBUS_MESSAGE_TYPE_INVALID;
static const int CDBUS_MESSAGE_TYPE_METHOD_CALL   = DBUS_MESSAGE_TYPE_METHOD_CALL;
static const int CDBUS_MESSAGE_TYPE_METHOD_RETURN = DBUS_MESSAGE_TYPE_METHOD_RETURN;
static const int CDBUS_MESSAGE_TYPE_ERROR         = DBUS_MESSAGE_TYPE_ERROR;
static const int CDBUS_MESSAGE_TYPE_SIGNAL        = DBUS_MESSAGE_TYPE_SIGNAL;

static const int CDBUS_TIMEOUT_INFINITE    = DBUS_TIMEOUT_INFINITE;
static const int CDBUS_TIMEOUT_USE_DEFAULT = DBUS_TIMEOUT_USE_DEFAULT;

static const int CDBUS_MAXIMUM_TYPE_RECURSION_DEPTH = DBUS_MAXIMUM_TYPE_RECURSION_DEPTH;

/* Wake-up primitive for the AXDBus event loop (non-blocking, close-on-exec). */
static inline int cdbus_eventfd_create(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}
static inline void cdbus_eventfd_signal(int fd) {
    eventfd_t one = 1;
    (void) eventfd_write(fd, one);
}
static inline void cdbus_eventfd_drain(int fd) {
    eventfd_t value;
    (void) eventfd_read(fd, &value);
}
static inline int cdbus_errno(void) { return errno; }

#endif
