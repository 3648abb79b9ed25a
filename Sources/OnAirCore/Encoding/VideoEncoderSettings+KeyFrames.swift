extension VideoEncoderSettings {
    /// These settings with a keyframe at least every `seconds` of media: the limit is tightened
    /// to `seconds` unless a tighter one is already set. Segmenting outputs (HLS) need this, since
    /// every segment starts on a keyframe.
    public func withKeyFrames(atLeastEvery seconds: Double) -> VideoEncoderSettings {
        guard seconds > 0 else { return self }
        var changed = self
        if maxKeyFrameIntervalDuration <= 0 || maxKeyFrameIntervalDuration > seconds {
            changed.maxKeyFrameIntervalDuration = seconds
        }
        return changed
    }
}
