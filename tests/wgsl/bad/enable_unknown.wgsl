// expect: 3:8 unknown extension 'teleportation'
// §Enable Extensions: the name must be an enable-extension.
enable teleportation;
@compute @workgroup_size(1) fn main() {}
