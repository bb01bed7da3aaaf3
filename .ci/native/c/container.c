/*
 * libsvm_container: container limits for the image's heap sizing and processor count
 * (ContainerLibrary in the svm jar). Reads cgroup v2 only (/sys/fs/cgroup): a process whose
 * cgroup sets neither memory.max nor cpu.max counts as not containerized. -1 means unlimited
 * or unknown, as in HotSpot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SUCCESS_IS_NOT_CONTAINERIZED 0
#define SUCCESS_IS_CONTAINERIZED 1
#define ERROR_LIBCONTAINER_TOO_OLD 2
#define ERROR_LIBCONTAINER_TOO_NEW 3
#define SUPPORTED_VERSION 240100

static char cgroupDir[4096];

static FILE *openCgroupFile(const char *file) {
    char path[4200];
    snprintf(path, sizeof(path), "%s/%s", cgroupDir, file);
    return fopen(path, "r");
}

/* A limit from a one-value cgroup file; -1 for "max" (no limit) or when it cannot be read. */
static long readLimit(const char *file) {
    FILE *fp = openCgroupFile(file);
    if (fp == NULL) {
        return -1;
    }
    char word[256];
    int ok = fscanf(fp, "%255s", word) == 1;
    fclose(fp);
    return !ok || strcmp(word, "max") == 0 ? -1 : atol(word);
}

static int cpuLimit(void) {
    FILE *fp = openCgroupFile("cpu.max");
    if (fp == NULL) {
        return -1;
    }
    char quota[64];
    long period = 0;
    int n = fscanf(fp, "%63s %ld", quota, &period);
    fclose(fp);
    if (n != 2 || strcmp(quota, "max") == 0 || period <= 0) {
        return -1;
    }
    long q = atol(quota);
    int cpus = (int) ((q + period - 1) / period);
    return cpus > 0 ? cpus : 1;
}

int svm_container_initialize(int version) {
    if (version < SUPPORTED_VERSION) {
        return ERROR_LIBCONTAINER_TOO_NEW;
    }
    if (version > SUPPORTED_VERSION) {
        return ERROR_LIBCONTAINER_TOO_OLD;
    }
    /* cgroup v2: one line "0::/path" in /proc/self/cgroup */
    FILE *fp = fopen("/proc/self/cgroup", "r");
    char line[4096];
    char rel[4096] = "";
    if (fp != NULL) {
        while (fgets(line, sizeof(line), fp) != NULL) {
            if (strncmp(line, "0::", 3) == 0) {
                line[strcspn(line, "\n")] = '\0';
                snprintf(rel, sizeof(rel), "%s", line + 3);
            }
        }
        fclose(fp);
    }
    snprintf(cgroupDir, sizeof(cgroupDir), "/sys/fs/cgroup%s", strcmp(rel, "/") == 0 ? "" : rel);
    if (access(cgroupDir, R_OK) != 0) {
        snprintf(cgroupDir, sizeof(cgroupDir), "/sys/fs/cgroup");
    }
    return readLimit("memory.max") > 0 || cpuLimit() > 0 ? SUCCESS_IS_CONTAINERIZED : SUCCESS_IS_NOT_CONTAINERIZED;
}

size_t svm_container_physical_memory(void) {
    return (size_t) sysconf(_SC_PHYS_PAGES) * (size_t) sysconf(_SC_PAGESIZE);
}

long svm_container_memory_limit_in_bytes(void) {
    return readLimit("memory.max");
}

long svm_container_memory_and_swap_limit_in_bytes(void) {
    long memory = readLimit("memory.max");
    long swap = readLimit("memory.swap.max");
    return memory < 0 || swap < 0 ? -1 : memory + swap;
}

long svm_container_memory_soft_limit_in_bytes(void) {
    return readLimit("memory.low");
}

long svm_container_memory_usage_in_bytes(void) {
    return readLimit("memory.current");
}

long svm_container_memory_max_usage_in_bytes(void) {
    return readLimit("memory.peak");
}

/* memory.stat: "anon" is the resident part HotSpot reports as RSS, "file" the page cache */
static long statValue(const char *key) {
    FILE *fp = openCgroupFile("memory.stat");
    if (fp == NULL) {
        return -1;
    }
    char name[128];
    long value;
    long result = -1;
    while (fscanf(fp, "%127s %ld", name, &value) == 2) {
        if (strcmp(name, key) == 0) {
            result = value;
            break;
        }
    }
    fclose(fp);
    return result;
}

long svm_container_rss_usage_in_bytes(void) {
    return statValue("anon");
}

long svm_container_cache_usage_in_bytes(void) {
    return statValue("file");
}

int svm_container_active_processor_count(void) {
    int limit = cpuLimit();
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return limit > 0 && limit < online ? limit : (int) online;
}
