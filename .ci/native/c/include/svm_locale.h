/* The default locale as the image reads it at start-up (LocaleCHelper): the display and the
 * format locale, each split into language, script, country and variant. */
#ifndef DEDUPQ_SVM_LOCALE_H
#define DEDUPQ_SVM_LOCALE_H

#define SVM_LOCALE_INITIALIZATION_SUCCEEDED 0
#define SVM_LOCALE_INITIALIZATION_OUT_OF_MEMORY 1

typedef struct {
    char *display_language;
    char *display_script;
    char *display_country;
    char *display_variant;
    char *format_language;
    char *format_script;
    char *format_country;
    char *format_variant;
} svm_locale_props_t;

int svm_initialize_locale(void);
svm_locale_props_t *svm_get_locale(void);
#endif
