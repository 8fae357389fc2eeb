export { Rng, hashString } from '../../shared/random'
