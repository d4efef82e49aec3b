extern "C"
__global__ void vector_add(const float * A, const float * B, float * C, const int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size)
        C[i] = A[i] + B[i];
}
