#ifndef AXSERVER_CGIO_SHIM_H
#define AXSERVER_CGIO_SHIM_H
/* The few GLib/GIO calls the settings reader needs (Sources/AXSettings, D-SET-1), declared here from GLib's stable
   C API instead of including <gio/gio.h>: its pkg-config flags carry -pthread, which SwiftPM refuses with a warning
   on every build. The module map links gio-2.0, gobject-2.0 and glib-2.0 (libglib2.0-dev provides the .so links).
   Wrappers cover what GLib spells as macros or variadic calls, which Swift cannot call. */
#include <stddef.h>

typedef struct _GSettings GSettings;
typedef struct _GSettingsSchemaSource GSettingsSchemaSource;
typedef struct _GSettingsSchema GSettingsSchema;
typedef struct _GSettingsSchemaKey GSettingsSchemaKey;
typedef struct _GVariantType GVariantType;
typedef struct _GVariant GVariant;
typedef struct _GMainContext GMainContext;
typedef struct _GSource GSource;
typedef int gboolean;
typedef unsigned long gulong;
typedef unsigned int guint;
typedef gboolean (*GSourceFunc)(void *user_data);
typedef void (*GCallback)(void);
typedef void (*GClosureNotify)(void *data, void *closure);
typedef void (*GDestroyNotify)(void *data);

GSettingsSchemaSource *g_settings_schema_source_get_default(void);
GSettingsSchema *g_settings_schema_source_lookup(GSettingsSchemaSource *source, const char *schema_id,
                                                 gboolean recursive);
void g_settings_schema_unref(GSettingsSchema *schema);
gboolean g_settings_schema_has_key(GSettingsSchema *schema, const char *name);
GSettingsSchemaKey *g_settings_schema_get_key(GSettingsSchema *schema, const char *name);
const GVariantType *g_settings_schema_key_get_value_type(GSettingsSchemaKey *key);
void g_settings_schema_key_unref(GSettingsSchemaKey *key);
gboolean g_variant_type_equal(const void *type1, const void *type2);
GSettings *g_settings_new(const char *schema_id);
GVariant *g_settings_get_user_value(GSettings *settings, const char *key);
gboolean g_settings_get_boolean(GSettings *settings, const char *key);
double g_settings_get_double(GSettings *settings, const char *key);
void g_variant_unref(GVariant *value);
void g_object_get(void *object, const char *first_property_name, ...);
void g_object_unref(void *object);
const char *g_type_name_from_instance(void *instance);
gulong g_signal_connect_data(void *instance, const char *detailed_signal, GCallback c_handler, void *data,
                             GClosureNotify destroy_data, int connect_flags);
GMainContext *g_main_context_new(void);
void g_main_context_push_thread_default(GMainContext *context);
void g_main_context_pop_thread_default(GMainContext *context);
void g_main_context_unref(GMainContext *context);
gboolean g_main_context_iteration(GMainContext *context, gboolean may_block);
GSource *g_timeout_source_new(guint interval);
void g_source_set_callback(GSource *source, GSourceFunc func, void *data, GDestroyNotify notify);
guint g_source_attach(GSource *source, GMainContext *context);
void g_source_unref(GSource *source);

/* A GSettings object for `schema`, or NULL when the schema is not installed (another desktop). */
static inline GSettings *axs_settings_new(const char *schema) {
    GSettingsSchemaSource *source = g_settings_schema_source_get_default();
    if (source == NULL) return NULL;
    GSettingsSchema *found = g_settings_schema_source_lookup(source, schema, 1);
    if (found == NULL) return NULL;
    g_settings_schema_unref(found);
    return g_settings_new(schema);
}

/* The type `key` has in the installed schema: 0 no such key, 1 boolean, 2 double, 3 another type. */
static inline int axs_key_type(GSettings *settings, const char *key) {
    GSettingsSchema *schema = NULL;
    g_object_get(settings, "settings-schema", &schema, NULL);
    if (schema == NULL) return 0;
    int result = 0;
    if (g_settings_schema_has_key(schema, key)) {
        GSettingsSchemaKey *schemaKey = g_settings_schema_get_key(schema, key);
        const GVariantType *type = g_settings_schema_key_get_value_type(schemaKey);
        if (g_variant_type_equal(type, "b")) result = 1;
        else if (g_variant_type_equal(type, "d")) result = 2;
        else result = 3;
        g_settings_schema_key_unref(schemaKey);
    }
    g_settings_schema_unref(schema);
    return result;
}

/* Whether the backend holds a value the user set for `key` (else the schema's default applies). */
static inline int axs_user_set(GSettings *settings, const char *key) {
    GVariant *value = g_settings_get_user_value(settings, key);
    if (value == NULL) return 0;
    g_variant_unref(value);
    return 1;
}

/* The type name of the backend `settings` reads (GKeyfileSettingsBackend, DConfSettingsBackend, …). */
static inline const char *axs_backend_name(GSettings *settings) {
    void *backend = NULL;
    g_object_get(settings, "backend", &backend, NULL);
    if (backend == NULL) return "unknown";
    const char *name = g_type_name_from_instance(backend);
    g_object_unref(backend);
    return name != NULL ? name : "unknown";
}

typedef void (*axs_changed_fn)(GSettings *settings, const char *key, void *context);

/* Connects `callback` to the "changed" signal (emitted in the thread-default main context at creation). */
static inline void axs_connect_changed(GSettings *settings, axs_changed_fn callback, void *context) {
    g_signal_connect_data(settings, "changed", (GCallback)callback, context, NULL, 0);
}

typedef int (*axs_timeout_fn)(void *context);

/* Adds a timeout of `milliseconds` to `main_context`; `callback` returns nonzero to run again. */
static inline void axs_add_timeout(GMainContext *main_context, unsigned milliseconds, axs_timeout_fn callback,
                                   void *context) {
    GSource *source = g_timeout_source_new(milliseconds);
    g_source_set_callback(source, (GSourceFunc)callback, context, NULL);
    g_source_attach(source, main_context);
    g_source_unref(source);
}

#endif
