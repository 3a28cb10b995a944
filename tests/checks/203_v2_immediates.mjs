// cases/203_v2_immediates.json: o[0] = k.x * 10 + k.y with the immediates
// (4, 2), then (5, 3): 42 and 53.
export default function () {
  return { explicit: [4 * 10 + 2], auto: [5 * 10 + 3] };
}
