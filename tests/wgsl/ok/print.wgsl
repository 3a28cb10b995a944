// chromium's print(v): one scalar or vector of any concrete scalar type;
// abstract arguments take their default concrete type.
@compute @workgroup_size(1) fn main() {
  print(1);
  print(2.5);
  print(vec3<bool>(true, false, true));
  print(vec4u(1u, 2u, 3u, 4u));
}
