/**
 * Voice presets a podcast may choose. They are our names, not a vendor's: each
 * synthesis provider maps a preset to its own voice (pitch, speed, voice id).
 */
export const VOICE_PRESETS = ['default', 'warm', 'bright', 'deep', 'fast', 'calm'] as const;

export type VoicePreset = (typeof VOICE_PRESETS)[number];

export const DEFAULT_VOICE: VoicePreset = 'default';
