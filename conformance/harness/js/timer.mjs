// The timer of a `bench` operation (adapters/README.md "bench"), shared by the JS adapters: wall
// time (performance.now) and CPU time (process.cpuUsage: every thread of this process, the libuv
// pool included) of the timed operation alone, as the bench response reports them.
export function startTimer() {
  let cpu = process.cpuUsage();
  let start = performance.now();
  return {
    stop() {
      let seconds = (performance.now() - start) / 1000;
      let used = process.cpuUsage(cpu);
      return { seconds, cpu: { user: used.user / 1e6, system: used.system / 1e6 } };
    },
  };
}
