#include "lite/backends/x86/winograd_nhwc.h"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
using namespace lite::x86;
int main(int argc, char** argv) {
  struct C { int ic, hw, oc; };
  for (C c : {C{16,56,64}, C{32,28,128}, C{64,14,256}, C{48,14,192}}) {
    std::vector<float> in(c.ic*c.hw*c.hw, 0.5f), f(c.oc*c.ic*9, 0.1f), b(c.oc, 0.f), out(c.hw*c.hw*c.oc);
    std::vector<float> flush(8<<20);
    WinogradNhwc w; w.SetFilter(f.data(), c.oc, c.ic);
    lite::KernelContext ctx;
    std::vector<double> t;
    for (int r=0;r<300;r++){ if (argc>1) for(size_t i=0;i<flush.size();i+=16) flush[i]+=1;
      auto t0=std::chrono::steady_clock::now(); w.Run(1,c.hw,c.hw,1,1,c.hw,c.hw,in.data(),b.data(),WinogradNhwc::Act::kRelu,0,out.data(),&ctx); auto t1=std::chrono::steady_clock::now();
      t.push_back(std::chrono::duration<double,std::milli>(t1-t0).count()); }
    std::sort(t.begin(),t.end());
    double fl=2.0*c.ic*c.oc*9*c.hw*c.hw;
    printf("ic%d %dx%d oc%d: median %.3f ms min %.3f ms  direct-equiv %.1f GFLOP/s (min)\n", c.ic,c.hw,c.hw,c.oc,t[t.size()/2],t[0], fl/t[0]/1e6);
  }
}
