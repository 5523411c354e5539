// Edges: exterior 1,1,1,1,1,1
void Edges_face_0();
void Edges_face_1();
void Edges_face_2();
void Edges_face_3();
void Edges_face_4();
void Edges_face_5();

