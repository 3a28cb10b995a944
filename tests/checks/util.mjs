// Helpers shared by the check models: dispatch shapes read from the case.

/** The [x, y, z] workgroup counts of the (first) direct dispatch of a pipeline. */
export function dispatchOf(spec, pipeline) {
  const d = spec.dispatches.find((e) => e.pipeline === pipeline && e.workgroups);
  if (!d) throw new Error(`no direct dispatch of ${pipeline}`);
  const [x, y = 1, z = 1] = d.workgroups;
  return [x, y, z];
}

/** Number of invocations along x of a 1D dispatch with workgroups of `size`. */
export function invocationsX(spec, pipeline, size) {
  const [x, y, z] = dispatchOf(spec, pipeline);
  if (y !== 1 || z !== 1) throw new Error(`${pipeline}: expected a 1D dispatch`);
  return x * size;
}

/** f32 rounding of one IEEE operation whose double result is exact or correctly rounded. */
export const f32 = Math.fround;
