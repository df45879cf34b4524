// heap_cxx.cc: exercises every C++ allocation entry point memtime replaces
// (new, new[], nothrow, aligned, sized and aligned deletes), for the
// Massif-agreement tests. Sizes are fixed so both tools see the same events.
#include <cstdio>
#include <cstdlib>
#include <new>
#include <vector>
#include <string>

struct alignas(64) Wide { char bytes[192]; };

__attribute__((noinline)) static std::vector<std::string>* make_names(int n)
{
   auto* v = new std::vector<std::string>();
   for (int i = 0; i < n; i++)
      v->push_back(std::string(40 + i, 'x'));   // long strings: heap
   return v;
}

int main()
{
   int* one = new int(7);
   int* many = new int[250];
   char* nt = new (std::nothrow) char[1000];
   double* ntd = new (std::nothrow) double;
   Wide* w = new Wide;                          // aligned new
   Wide* ws = new Wide[3];                      // aligned new[]
   void* al = ::operator new(512, std::align_val_t(256));
   void* aln = ::operator new(300, std::align_val_t(128), std::nothrow);
   void* zero = ::operator new(0);
   char* huge = new (std::nothrow) char[(size_t)1 << 62];   // fails: NULL
   std::vector<std::string>* names = make_names(30);

   // (A failing throwing new cannot be tested: Valgrind's replacement
   // aborts instead of throwing.)
   std::printf("huge %p\n", (void*)huge);

   ::operator delete(one, sizeof(int));         // sized delete
   delete[] many;
   delete[] nt;
   delete ntd;
   delete w;                                    // aligned delete
   delete[] ws;
   ::operator delete(al, std::align_val_t(256));
   ::operator delete(aln, 300, std::align_val_t(128));
   ::operator delete(zero);
   names->resize(10);
   names->shrink_to_fit();
   delete names;
   return 0;
}
