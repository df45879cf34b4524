/* operator new under --heap-limit-action=fail: 1 MiB vectors until new
   throws std::bad_alloc, which the program catches and reports with the
   step; then it frees everything and allocates once more. t590. */
#include <cstdio>
#include <new>
#include <vector>

int main()
{
    std::vector<char*> kept;
    for (int step = 1; step <= 1000; step++) {
        try {
            kept.reserve(1000);
            kept.push_back(new char[1 << 20]);
        } catch (const std::bad_alloc&) {
            std::printf("bad_alloc at step %d\n", step);
            for (char* p : kept)
                delete[] p;
            kept.clear();
            char* again = new char[1 << 20];
            std::printf("after freeing: %s\n", again ? "allocated" : "null");
            delete[] again;
            return 0;
        }
    }
    std::printf("no bad_alloc\n");
    return 1;
}
