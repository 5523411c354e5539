// Standalone experiment behind bench/RESULTS.md (2026-11-27): what each OpenCL call a generated
// launcher makes costs the host, on the platform whose name contains argv[1] (default "NVIDIA";
// "Portable" for pocl). Issue 28 asks for at most 10 us of host time a launch; on NVIDIA's
// platform the CaKernel backend spent 24-41 us (edbaa7a). Each line is the host's time a call,
// averaged over `repetitions` calls with the device kept busy enough that the queue never
// empties and never fills (a kernel of 4096 work-items).
//
//   g++ -O2 -std=c++17 -I bench/experiments bench/experiments/opencl_launch_cost.cpp -lOpenCL -o /tmp/opencl_launch_cost
//   /tmp/opencl_launch_cost NVIDIA 20000
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "opencl_platform.hpp"

namespace {

using experiments::check;

const char* source = R"CL(
__kernel void scale(__global double* a, double s) { a[get_global_id(0)] *= s; }
)CL";

double microseconds_a_call(int repetitions, cl_command_queue queue, const std::function<void()>& call) {
  for (int i = 0; i < 100; ++i) call();
  clFinish(queue);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < repetitions; ++i) call();
  const auto end = std::chrono::steady_clock::now();
  clFinish(queue);
  return std::chrono::duration<double, std::micro>(end - start).count() / repetitions;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string wanted = argc > 1 ? argv[1] : "NVIDIA";
  const int repetitions = argc > 2 ? std::atoi(argv[2]) : 20000;
  const cl_device_id device = experiments::device_of_platform(wanted).device;
  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
  check(status, "clCreateContext");
  cl_command_queue profiled = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &status);
  check(status, "clCreateCommandQueue");
  cl_command_queue plain = clCreateCommandQueue(context, device, 0, &status);
  check(status, "clCreateCommandQueue");
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
  check(status, "clCreateProgramWithSource");
  check(clBuildProgram(program, 1, &device, "-cl-std=CL1.2", nullptr, nullptr), "clBuildProgram");
  cl_kernel kernel = clCreateKernel(program, "scale", &status);
  check(status, "clCreateKernel");
  const std::size_t global = 4096, local = 128;
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, global * sizeof(double), nullptr, &status);
  check(status, "clCreateBuffer");
  const double s = 1.0;
  check(clSetKernelArg(kernel, 0, sizeof buffer, &buffer), "clSetKernelArg");
  check(clSetKernelArg(kernel, 1, sizeof s, &s), "clSetKernelArg");

  const auto enqueue = [&](cl_command_queue q, cl_event* event) {
    check(clEnqueueNDRangeKernel(q, kernel, 1, nullptr, &global, &local, 0, nullptr, event), "enqueue");
  };
  const auto marker = [&](cl_command_queue q) {
    cl_event e = nullptr;
    check(clEnqueueMarkerWithWaitList(q, 0, nullptr, &e), "marker");
    clReleaseEvent(e);
  };
  struct row {
    const char* what;
    std::function<void()> call;
    cl_command_queue queue;
  };
  std::map<std::tuple<const char*, std::string, std::string>, cl_kernel> launched;
  launched[{source, "-DCAKERNEL_TX=64 -DCAKERNEL_TY=4", "scale"}] = kernel;
  const std::vector<row> rows = {
      {"clSetKernelArg x2", [&] {
         check(clSetKernelArg(kernel, 0, sizeof buffer, &buffer), "arg");
         check(clSetKernelArg(kernel, 1, sizeof s, &s), "arg");
       }, plain},
      {"kernel, no event (queue without profiling)", [&] { enqueue(plain, nullptr); }, plain},
      {"kernel, no event (profiling queue)", [&] { enqueue(profiled, nullptr); }, profiled},
      {"kernel with its event, released (profiling queue)", [&] {
         cl_event e = nullptr;
         enqueue(profiled, &e);
         clReleaseEvent(e);
       }, profiled},
      {"marker with event, released (profiling queue)", [&] { marker(profiled); }, profiled},
      {"kernel + 2 markers (profiling queue)", [&] {
         marker(profiled);
         enqueue(profiled, nullptr);
         marker(profiled);
       }, profiled},
      {"kernel with event + 1 marker (profiling queue)", [&] {
         cl_event e = nullptr;
         enqueue(profiled, &e);
         clReleaseEvent(e);
         marker(profiled);
       }, profiled},
      {"options string + launched map lookup (host only)", [&] {
         const std::string options = "-DCAKERNEL_TX=" + std::to_string(64) + " -DCAKERNEL_TY=" + std::to_string(4);
         const auto found = launched.find(std::make_tuple(source, options, std::string("scale")));
         if (found == launched.end()) std::abort();
       }, plain},
  };
  std::printf("%-55s %10s\n", "call", "us a call");
  for (const auto& r : rows) std::printf("%-55s %10.2f\n", r.what, microseconds_a_call(repetitions, r.queue, r.call));
  // The status query the run's timers make of an event still pending or done.
  cl_event e = nullptr;
  enqueue(profiled, &e);
  clFinish(profiled);
  std::printf("%-55s %10.2f\n", "clGetEventInfo(status) of a done event",
              microseconds_a_call(repetitions, profiled, [&] {
                cl_int st = 0;
                clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr);
              }));
  std::printf("%-55s %10.2f\n", "clGetEventProfilingInfo(end) of a done event",
              microseconds_a_call(repetitions, profiled, [&] {
                cl_ulong end = 0;
                clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr);
              }));
  clReleaseEvent(e);
  clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(plain);
  clReleaseCommandQueue(profiled);
  clReleaseContext(context);
  return 0;
}
