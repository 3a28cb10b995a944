// expect: 2:11 outside its domain
const x = log(-1.0);
