/** Renderer test setup: React Testing Library cleans the DOM after each test. */
import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

afterEach(() => cleanup());
