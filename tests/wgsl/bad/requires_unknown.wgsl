// expect: 3:10 unknown language extension 'time_travel'
// §Language Extensions: a required language extension must be supported.
requires time_travel;
@compute @workgroup_size(1) fn main() {}
