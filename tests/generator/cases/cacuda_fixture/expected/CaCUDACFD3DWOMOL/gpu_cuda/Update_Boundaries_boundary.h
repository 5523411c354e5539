/* boundary kernel Update_Boundaries: one launch per face */
#define CAKERNEL_Update_Boundaries_FACE_0 0
#define CAKERNEL_Update_Boundaries_FACE_1 1
#define CAKERNEL_Update_Boundaries_FACE_2 2
#define CAKERNEL_Update_Boundaries_FACE_3 3
#define CAKERNEL_Update_Boundaries_FACE_4 4
#define CAKERNEL_Update_Boundaries_FACE_5 5
