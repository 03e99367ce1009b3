// device_report.cu: a deviceQuery-style report of the modeled GPU, then a
// small kernel timed with events and std::chrono, its results written to
// a CSV file with std::ofstream, read back with std::ifstream and
// summarized in a std::map. Everything it prints is deterministic under
// `weft run` (the clocks are the run's virtual clock).
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

__global__ void bucketize(const float *x, int *bucket, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) bucket[i] = (int)(x[i] * 4.0f);
}

static std::string mib(size_t bytes) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(0) << bytes / 1048576.0 << " MiB";
  return os.str();
}

int main(int argc, char **argv) {
  int dev = 0;
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, dev) != cudaSuccess) return 1;
  int cores = 0;
  cudaDeviceGetAttribute(&cores, cudaDevAttrMultiProcessorCount, dev);
  char bus[16];
  cudaDeviceGetPCIBusId(bus, sizeof bus, dev); // GPU: differs (the PCI location and memory size are those of the modelled device, not the lent one)
  std::cout << "Device " << dev << ": \"" << p.name << "\" (" << bus << ")\n"
            << "  compute capability      " << p.major << "." << p.minor << "\n"
            << "  multiprocessors         " << cores << "\n"
            << "  global memory           " << mib(p.totalGlobalMem) << "\n"
            << "  L2 cache                " << mib(p.l2CacheSize) << "\n"
            << "  shared memory per block " << p.sharedMemPerBlock / 1024 << " KiB (opt-in "
            << p.sharedMemPerBlockOptin / 1024 << " KiB)\n"
            << "  max threads per block   " << p.maxThreadsPerBlock << " (" << p.maxThreadsDim[0] << " x "
            << p.maxThreadsDim[1] << " x " << p.maxThreadsDim[2] << ")\n"
            << "  memory bus              " << p.memoryBusWidth << " bits\n"
            << "  cooperative launch      " << (p.cooperativeLaunch ? "yes" : "no") << ", clusters "
            << (p.clusterLaunch ? "yes" : "no") << "\n";

  const int n = 1000;
  std::vector<float> x(n);
  for (int i = 0; i < n; i++) x[i] = (i * 37 % 100) / 100.0f;
  float *dx;
  int *db;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&db, n * sizeof(int));
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  auto t0 = std::chrono::steady_clock::now();
  bucketize<<<(n + 255) / 256, 256>>>(dx, db, n);
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  std::vector<int> b(n);
  cudaMemcpy(b.data(), db, n * sizeof(int), cudaMemcpyDeviceToHost);
  long us = std::chrono::duration_cast<std::chrono::microseconds>(t1 - t0).count();
  std::cout << "kernel took " << (us >= 0 ? "a measured" : "a negative") << " time\n";

  {
    std::ofstream csv("buckets.csv");
    csv << "i,x,bucket\n";
    for (int i = 0; i < n; i++) csv << i << "," << x[i] << "," << b[i] << "\n";
  }
  std::ifstream in("buckets.csv");
  std::string line;
  std::getline(in, line); // the header
  std::map<int, int> histogram;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string i, xv, bucket;
    std::getline(fields, i, ',');
    std::getline(fields, xv, ',');
    std::getline(fields, bucket, ',');
    histogram[std::stoi(bucket)]++;
  }
  for (const auto &[bucket, count] : histogram)
    std::cout << "bucket " << bucket << ": " << std::setw(4) << count << "\n";
  cudaFree(dx);
  cudaFree(db);
  return 0;
}
