/**
 * Which adapter values are secret and how they are masked. The rules live in shared/ so the
 * Routes page's adapter editor proposes exactly what the server decides.
 */
export * from '../../../../shared/secrets';
