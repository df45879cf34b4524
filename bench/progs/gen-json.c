/* gen-json.c: writes the JSON input of bench "defaults"' jq workload: one
   array of objects (id, name, flags, score, a tags array, a nested attrs
   object with a number array, and a sentence of words), about TARGET_MB
   megabytes, the same bytes every time (fixed xorshift seed).
   Usage: gen-json OUT_FILE [TARGET_MB]   (default 20) */
#include <stdio.h>
#include <stdlib.h>

static unsigned long long rng = 0x2545F4914F6CDD1DULL;

static unsigned long long next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static const char *const words[] = {
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
    "india", "juliet", "kilo", "lima", "mike", "november", "oscar", "papa",
    "quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey",
    "xray", "yankee", "zulu",
};
#define N_WORDS (sizeof words / sizeof words[0])

static const char *word(void) { return words[next_rand() % N_WORDS]; }

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: gen-json OUT_FILE [TARGET_MB]\n");
        return 2;
    }
    long target = (argc > 2 ? atol(argv[2]) : 20) * 1000000L;
    FILE *f = fopen(argv[1], "w");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    fputs("[\n", f);
    for (long id = 0; ftell(f) < target; id++) {
        unsigned long long r = next_rand();
        fprintf(f, "%s{\"id\":%ld,\"name\":\"%s-%s-%llx\",\"active\":%s,\"score\":%llu.%02llu,\"tags\":[",
                id ? ",\n" : "", id, word(), word(), r % 0xfffff,
                (r >> 20) & 1 ? "true" : "false", (r >> 21) % 1000, (r >> 31) % 100);
        for (unsigned i = 0, n = 1 + (unsigned)(next_rand() % 6); i < n; i++)
            fprintf(f, "%s\"%s\"", i ? "," : "", word());
        fprintf(f, "],\"attrs\":{\"city\":\"%s\",\"zip\":\"%05llu\",\"vals\":[", word(), next_rand() % 100000);
        for (unsigned i = 0, n = 2 + (unsigned)(next_rand() % 8); i < n; i++)
            fprintf(f, "%s%llu", i ? "," : "", next_rand() % 10000);
        fputs("]},\"text\":\"", f);
        for (unsigned i = 0, n = 4 + (unsigned)(next_rand() % 12); i < n; i++)
            fprintf(f, "%s%s", i ? " " : "", word());
        fputs("\"}", f);
    }
    fputs("\n]\n", f);
    if (fclose(f) != 0) {
        perror(argv[1]);
        return 1;
    }
    return 0;
}
