# tiny directed edge list: 4 vertices, 5 arcs, one self-loop
0 1
0 2
1 2
2 3
3 3
